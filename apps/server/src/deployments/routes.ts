import {
  deployOwnerSchema,
  deployRepoSchema,
  logStreamQuerySchema,
  rollbackParamsSchema,
  rollbackRequestSchema,
  sessionStateRequestSchema,
  startDeploymentRequestSchema,
  workflowSessionIdSchema,
} from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../domain/errors.js';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { openSse } from '../http/sse.js';
import { parse } from '../http/validate.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { LogStore } from '../logs/logStore.js';
import type { createBuildLogReader } from './buildLog.js';
import type { DeploymentService } from './deploymentService.js';
import { streamBuildLog, streamServiceLog } from './logStream.js';

const sessionParams = z.object({ sessionId: workflowSessionIdSchema });
const idParams = z.object({ id: z.string().min(1).max(100) });
const nameParams = z.object({ name: z.string().min(1).max(200) });
const repoParams = z.object({ owner: deployOwnerSchema, repo: deployRepoSchema });

export function deploymentRoutes(
  app: FastifyInstance,
  deps: {
    deployments: DeploymentService;
    pubsub: PubSub;
    buildLogs: ReturnType<typeof createBuildLogReader>;
    logStore: LogStore;
  },
) {
  const { deployments } = deps;
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/workflow/deployment', guard, async () => deployments.definition());

  app.post('/api/workflow/deployment/start', guard, async (request) =>
    deployments.start(currentUser(request), parse(startDeploymentRequestSchema, request.body)),
  );

  app.get('/api/workflow/deployment/status/:sessionId', guard, async (request) => {
    const { sessionId } = parse(sessionParams, request.params);
    return deployments.status(currentUser(request), sessionId);
  });

  app.get('/api/workspace-revisions/:name', guard, async (request) => {
    const { name } = parse(nameParams, request.params);
    return deployments.revisions(currentUser(request), name);
  });

  app.post('/api/workspace-rollback/:name/:deploymentId', guard, async (request) => {
    const { name, deploymentId } = parse(rollbackParamsSchema, request.params);
    const { sessionId } = parse(rollbackRequestSchema, request.body);
    return deployments.rollback(currentUser(request), name, deploymentId, sessionId);
  });

  app.post('/api/workflow/deployment/cancel/:sessionId', guard, async (request) => {
    const { sessionId } = parse(sessionParams, request.params);
    return deployments.cancel(currentUser(request), sessionId);
  });

  app.get('/api/workflow/deployment/status/:sessionId/stream', guard, async (request, reply) => {
    const user = currentUser(request);
    const { sessionId } = parse(sessionParams, request.params);
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
  });

  app.get('/api/deployment/job/:id', guard, async (request) => {
    const { id } = parse(idParams, request.params);
    return deployments.job(currentUser(request), id);
  });

  app.get('/api/session/state/:sessionId', guard, async (request) => {
    const { sessionId } = parse(sessionParams, request.params);
    return deployments.sessionState.get(currentUser(request), sessionId);
  });
  app.post('/api/session/state', guard, async (request) => {
    const { sessionId, stateData } = parse(sessionStateRequestSchema, request.body);
    return deployments.sessionState.save(currentUser(request), sessionId, stateData);
  });
  app.delete('/api/session/state/:sessionId', guard, async (request) => {
    const { sessionId } = parse(sessionParams, request.params);
    return deployments.sessionState.remove(currentUser(request), sessionId);
  });
  app.put('/api/session/state/:sessionId/extend', guard, async (request) => {
    const { sessionId } = parse(sessionParams, request.params);
    return deployments.sessionState.extend(currentUser(request), sessionId);
  });

  app.get('/api/logs/:owner/:repo/stream', guard, async (request, reply) => {
    const user = currentUser(request);
    const { owner, repo } = parse(repoParams, request.params);
    const query = parse(logStreamQuerySchema, request.query);
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
    await streamServiceLog(
      { pubsub: deps.pubsub, logStore: deps.logStore },
      workspace,
      { initialLines: query.initial_lines, follow: query.follow, service: query.service },
      channel,
    );
  });

  app.delete('/api/workspace-delete/:name', guard, async (request) => {
    const { name } = parse(nameParams, request.params);
    return deployments.deleteWorkspace(currentUser(request), name);
  });
}
