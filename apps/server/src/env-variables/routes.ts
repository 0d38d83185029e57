import { envVariableSchema } from '@slipway/contract';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { EnvVariablesService } from './envVariablesService.js';

/**
 * The owner's environment variables of a workspace. Every call is scoped to the signed-in user, so
 * another user's workspace of the same name is simply a different (usually empty) set.
 */
export function envVariableRoutes(deps: { envVariables: EnvVariablesService }) {
  const { envVariables } = deps;
  return {
    listEnvVariables: ({ user, params, reply }) => {
      // Secrets must not sit in a browser or proxy cache.
      reply.header('cache-control', 'no-store');
      return envVariables.list(user.id, params.workspace);
    },
    uploadEnvVariables: ({ user, params, body }) =>
      envVariables.upload(user.id, params.workspace, body.variables),
    updateEnvVariable: ({ user, params, body }) => {
      const checked = envVariableSchema.parse({ key: params.key, value: body.value });
      return envVariables.setValue(user.id, params.workspace, checked.key, checked.value);
    },
    deleteEnvVariable: ({ user, params }) => envVariables.deleteOne(user.id, params.workspace, params.key),
    deleteEnvVariables: ({ user, params }) => envVariables.deleteAll(user.id, params.workspace),
  } satisfies Partial<RouteHandlers>;
}
