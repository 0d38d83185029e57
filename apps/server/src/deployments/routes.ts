import { DomainError } from '../domain/errors.js';
import type { RouteHandlers } from '../http/registerRoutes.js';
import { openSse } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { LogStore } from '../logs/logStore.js';
import { streamServiceLogs } from '../logs/logStream.js';
import type { createBuildLogReader } from './buildLog.js';
import { streamBuildLog } from './buildLogStream.js';
import type { DeploymentService } from './deploymentService.js';
import { startedAnswer } from './presenter.js';
import type { createServiceReplicas } from './serviceReplicas.js';

export function deploymentRoutes(deps: {
  deployments: DeploymentService;
  setServiceReplicas: ReturnType<typeof createServiceReplicas>;
  pubsub: PubSub;
  buildLogs: ReturnType<typeof createBuildLogReader>;
  logStore: LogStore;
}) {
  const { deployments } = deps;
  return {
    workflowDefinition: () => deployments.definition(),
    startDeployment: async ({ user, body }) =>
      startedAnswer(await deployments.deploy({ kind: 'manual', user, request: body })),
    deploymentStatus: ({ user, params }) => deployments.status(user, params.sessionId),
    workspaceRevisions: ({ user, params }) => deployments.revisions(user, params.name),
    rollbackWorkspace: async ({ user, params, body }) =>
      startedAnswer(
        await deployments.deploy({
          kind: 'rollback',
          user,
          workspaceName: params.name,
          deploymentId: params.deploymentId,
          sessionId: body.sessionId,
        }),
      ),
    setServiceReplicas: ({ user, params, body }) =>
      deps.setServiceReplicas(user, params.name, params.service, body),
    cancelDeployment: ({ user, params }) => deployments.cancel(user, params.sessionId),

    deploymentStatusStream: async ({ user, params: { sessionId }, request, reply }) => {
      await deployments.deploymentForSession(user, sessionId); // 404 before the stream opens
      const channel = openSse(request, reply);
      const send = (message: unknown) => channel.send(JSON.stringify(message));
      send({ type: 'connected', sessionId });
      try {
        const unsubscribe = await deps.pubsub.subscribe(CHANNELS.workflow(sessionId), (message) => {
          send(message);
          if ((message as { type?: string })?.type === 'finished') channel.close();
        });
        channel.onClose(() => void unsubscribe());
        const status = await deployments.status(user, sessionId);
        send({ type: 'status', ...status });
        if (status.state !== 'started') {
          send({ type: 'finished', ...status });
          channel.close();
        }
      } catch (error) {
        send({
          type: 'error',
          error: error instanceof DomainError ? error.message : 'The status stream failed',
        });
        channel.close();
      }
    },

    deploymentJob: ({ user, params }) => deployments.job(user, params.id),
    getSessionState: ({ user, params }) => deployments.sessionState.get(user, params.sessionId),
    saveSessionState: ({ user, body }) => deployments.sessionState.save(user, body.sessionId, body.stateData),
    deleteSessionState: ({ user, params }) => deployments.sessionState.remove(user, params.sessionId),
    extendSessionState: ({ user, params }) => deployments.sessionState.extend(user, params.sessionId),

    deploymentLogStream: async ({ user, params: { owner, repo }, query, request, reply }) => {
      if (query.log_type === 'build') {
        const deployment = await deployments.latestDeployment(user, repo);
        if (!deployment || deployment.owner !== owner)
          throw new DomainError('not_found', 'No deployment found');
        const channel = openSse(request, reply);
        await streamBuildLog(
          {
            pubsub: deps.pubsub,
            reader: deps.buildLogs,
            reload: () => deployments.reloadDeployment(deployment.id),
          },
          deployment,
          { initialLines: query.initial_lines, follow: query.follow },
          channel,
        );
        return;
      }
      const workspace = await deployments.findOwnedWorkspace(user, repo);
      if (workspace.repoOwner !== owner) throw new DomainError('workspace_not_found', 'Workspace not found');
      const channel = openSse(request, reply);
      await streamServiceLogs(
        { pubsub: deps.pubsub, logStore: deps.logStore },
        workspace,
        { initialLines: query.initial_lines, follow: query.follow, service: query.service },
        channel,
      );
    },
  } satisfies Partial<RouteHandlers>;
}
