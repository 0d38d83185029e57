import { z } from 'zod';
import {
  addWhitelistEmailRequestSchema,
  addWhitelistEmailResultSchema,
  adminAuthRequestSchema,
  adminStatsSchema,
  adminUserListSchema,
  adminVmListSchema,
  adminWorkspaceListSchema,
  auditLogQuerySchema,
  auditLogSchema,
  bulkWhitelistRequestSchema,
  bulkWhitelistResultSchema,
  impersonationResultSchema,
  impersonationTokenSchema,
  redisFlushRequestSchema,
  redisFlushResultSchema,
  redisInfoSchema,
  removeFromWhitelistResultSchema,
  removeWhitelistEmailResultSchema,
  systemLogParamsSchema,
  systemLogQuerySchema,
  systemLogServicesSchema,
  systemLogTailSchema,
  whitelistedEmailListSchema,
  whitelistUserResultSchema,
} from '../admin.js';
import { cadvisorContainerInfoSchema, cadvisorMachineInfoSchema } from '../cadvisor.js';
import { route } from '../route.js';
import { successMessageSchema, successSchema } from '../schemaKit.js';

export const adminUserParamsSchema = z.object({ id: z.string().max(64) });
export const whitelistEmailParamsSchema = z.object({ email: z.string().min(1).max(254) });
export const vmNameParamsSchema = z.object({ vm_name: z.string().min(1).max(128) });

const admin = <const R extends Omit<Parameters<typeof route>[0], 'kind' | 'access'>>(definition: R) =>
  route({ ...definition, kind: 'json', access: 'admin' } as const);

/** The admin panel (`/api/admin/*`) and the impersonation links it hands out. */
export const adminRoutes = {
  adminSignIn: route({
    method: 'POST',
    path: '/api/admin/auth',
    kind: 'json',
    access: 'public',
    body: adminAuthRequestSchema,
    bodyLimit: 16 * 1024,
    responses: { 200: successSchema },
    note: 'Attempts are rate-limited per client (429).',
  }),
  adminSessionStatus: route({
    method: 'GET',
    path: '/api/admin/session-status',
    kind: 'json',
    access: 'public',
    responses: { 200: z.strictObject({ isAdmin: z.boolean() }) },
  }),
  adminSignOut: route({
    method: 'POST',
    path: '/api/admin/logout',
    kind: 'json',
    access: 'public',
    responses: { 200: successSchema },
  }),
  adminStats: admin({ method: 'GET', path: '/api/admin/stats', responses: { 200: adminStatsSchema } }),
  adminUsers: admin({ method: 'GET', path: '/api/admin/users', responses: { 200: adminUserListSchema } }),
  adminWaitingList: admin({
    method: 'GET',
    path: '/api/admin/users/waiting-list',
    responses: { 200: adminUserListSchema },
  }),
  adminWhitelistedUsers: admin({
    method: 'GET',
    path: '/api/admin/users/whitelisted',
    responses: { 200: adminUserListSchema },
  }),
  whitelistUser: admin({
    method: 'POST',
    path: '/api/admin/users/:id/whitelist',
    params: adminUserParamsSchema,
    responses: { 200: whitelistUserResultSchema },
  }),
  removeFromWhitelist: admin({
    method: 'DELETE',
    path: '/api/admin/users/:id/whitelist',
    params: adminUserParamsSchema,
    responses: { 200: removeFromWhitelistResultSchema },
  }),
  bulkWhitelist: admin({
    method: 'POST',
    path: '/api/admin/users/bulk-whitelist',
    body: bulkWhitelistRequestSchema,
    responses: { 200: bulkWhitelistResultSchema },
  }),
  whitelistEmails: admin({
    method: 'GET',
    path: '/api/admin/whitelist/emails',
    responses: { 200: whitelistedEmailListSchema },
  }),
  addWhitelistEmail: admin({
    method: 'POST',
    path: '/api/admin/whitelist/emails',
    body: addWhitelistEmailRequestSchema,
    responses: { 200: addWhitelistEmailResultSchema },
  }),
  removeWhitelistEmail: admin({
    method: 'DELETE',
    path: '/api/admin/whitelist/emails/:email',
    params: whitelistEmailParamsSchema,
    responses: { 200: removeWhitelistEmailResultSchema },
  }),
  adminVms: admin({ method: 'GET', path: '/api/admin/vms', responses: { 200: adminVmListSchema } }),
  deleteVm: admin({
    method: 'DELETE',
    path: '/api/admin/vms/:vm_name',
    params: vmNameParamsSchema,
    responses: { 200: successMessageSchema },
  }),
  adminWorkspaces: admin({
    method: 'GET',
    path: '/api/admin/workspaces',
    responses: { 200: adminWorkspaceListSchema },
  }),
  systemLogs: admin({ method: 'GET', path: '/api/admin/logs', responses: { 200: systemLogServicesSchema } }),
  systemLogTail: admin({
    method: 'GET',
    path: '/api/admin/logs/:service',
    params: systemLogParamsSchema,
    query: systemLogQuerySchema,
    responses: { 200: systemLogTailSchema },
  }),
  auditLog: admin({
    method: 'GET',
    path: '/api/admin/audit-log',
    query: auditLogQuerySchema,
    responses: { 200: auditLogSchema },
    note: 'Newest first.',
  }),
  redisInfo: admin({ method: 'GET', path: '/api/admin/redis/info', responses: { 200: redisInfoSchema } }),
  redisFlush: admin({
    method: 'POST',
    path: '/api/admin/redis/flush',
    body: redisFlushRequestSchema,
    responses: { 200: redisFlushResultSchema },
  }),
  impersonate: admin({
    method: 'POST',
    path: '/api/admin/impersonate/:id',
    params: adminUserParamsSchema,
    responses: { 200: impersonationResultSchema },
  }),
  cadvisorMachine: admin({
    method: 'GET',
    path: '/api/admin/cadvisor/api/v1.3/machine',
    responses: { 200: cadvisorMachineInfoSchema },
  }),
  cadvisorContainers: admin({
    method: 'GET',
    path: '/api/admin/cadvisor/api/v1.3/containers',
    responses: { 200: cadvisorContainerInfoSchema },
  }),
  openImpersonationLink: route({
    method: 'GET',
    path: '/api/auth/impersonate',
    kind: 'redirect',
    access: 'public',
    query: impersonationTokenSchema,
    responses: {},
    note: 'The link an admin hands out: signs this browser in as the user (once) and redirects to /.',
  }),
  redeemImpersonationToken: route({
    method: 'POST',
    path: '/api/auth/impersonate',
    kind: 'redirect',
    access: 'public',
    body: impersonationTokenSchema,
    responses: {},
  }),
};
