import {
  envKeySchema,
  envVariableSchema,
  updateEnvVariableRequestSchema,
  uploadEnvVariablesRequestSchema,
  workspaceNameSchema,
} from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { EnvVariablesService } from './envVariablesService.js';

const workspaceParams = z.object({ workspace: workspaceNameSchema });
const variableParams = workspaceParams.extend({ key: envKeySchema });

/** 200 variables of up to 64 KiB (512 KiB in total) can double in size as escaped JSON. */
const UPLOAD_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * The owner's environment variables of a workspace. Every call is scoped to the signed-in user, so
 * another user's workspace of the same name is simply a different (usually empty) set.
 */
export function envVariableRoutes(app: FastifyInstance, deps: { envVariables: EnvVariablesService }) {
  const { envVariables } = deps;
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/env-variables/:workspace', guard, async (request, reply) => {
    const { workspace } = parse(workspaceParams, request.params);
    // Secrets must not sit in a browser or proxy cache.
    reply.header('cache-control', 'no-store');
    return envVariables.list(currentUser(request).id, workspace);
  });

  app.post(
    '/api/env-variables/:workspace/upload',
    { ...guard, bodyLimit: UPLOAD_BODY_LIMIT },
    async (request) => {
      const { workspace } = parse(workspaceParams, request.params);
      const { variables } = parse(uploadEnvVariablesRequestSchema, request.body);
      return envVariables.upload(currentUser(request).id, workspace, variables);
    },
  );

  app.put('/api/env-variables/:workspace/:key', guard, async (request) => {
    const { workspace, key } = parse(variableParams, request.params);
    const { value } = parse(updateEnvVariableRequestSchema, request.body);
    const checked = parse(envVariableSchema, { key, value });
    return envVariables.setValue(currentUser(request).id, workspace, checked.key, checked.value);
  });

  app.delete('/api/env-variables/:workspace/:key', guard, async (request) => {
    const { workspace, key } = parse(variableParams, request.params);
    return envVariables.deleteOne(currentUser(request).id, workspace, key);
  });

  app.delete('/api/env-variables/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    return envVariables.deleteAll(currentUser(request).id, workspace);
  });
}
