import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { SystemHealthService } from './systemHealthService.js';

const params = z.object({ workspace: z.string().min(1).max(200) });

export function monitoringRoutes(app: FastifyInstance, deps: { systemHealth: SystemHealthService }) {
  const guard = { preHandler: requireWhitelisted };
  const call =
    <T>(run: (userId: string, workspace: string) => Promise<T>) =>
    async (request: FastifyRequest) => {
      const { workspace } = parse(params, request.params);
      return run(currentUser(request).id, workspace);
    };

  app.get('/api/monitoring/system-health-status/:workspace', guard, call(deps.systemHealth.status));
  app.get('/api/monitoring/system-info/:workspace', guard, call(deps.systemHealth.info));
  app.get('/api/monitoring/vm-health-metrics/:workspace', guard, call(deps.systemHealth.vmHealth));
  app.get('/api/monitoring/system-health-containers/:workspace', guard, call(deps.systemHealth.containers));
  app.post('/api/monitoring/system-health-deploy/:workspace', guard, call(deps.systemHealth.deploy));
}
