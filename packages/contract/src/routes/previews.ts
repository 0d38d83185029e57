import { z } from 'zod';
import {
  previewParamsSchema,
  previewSchema,
  previewSettingsSchema,
  previewVariableParamsSchema,
  previewVariableSchema,
  updatePreviewSettingsSchema,
  updatePreviewVariableSchema,
} from '../previews.js';
import { route } from '../route.js';
import { successMessageSchema } from '../schemaKit.js';
import { workspaceNameParamSchema } from '../workspaces.js';

/** Workspace Settings → Previews, and the previews of a workspace's pull requests. */
export const previewRoutes = {
  getPreviewSettings: route({
    method: 'GET',
    path: '/api/workspace-preview-settings/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 200: previewSettingsSchema },
    note: 'A workspace that never saved any answers the defaults: off, the smallest VM size, 3 at once, 7 days.',
  }),
  setPreviewSettings: route({
    method: 'PUT',
    path: '/api/workspace-preview-settings/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    body: updatePreviewSettingsSchema,
    responses: { 200: previewSettingsSchema },
    note: 'Turning previews off leaves existing previews running until their pull requests close or the sweep removes them.',
  }),
  listPreviews: route({
    method: 'GET',
    path: '/api/workspace-previews/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 200: z.array(previewSchema) },
    note: 'Newest pull request first.',
  }),
  redeployPreview: route({
    method: 'POST',
    path: '/api/workspace-previews/:name/:number/redeploy',
    kind: 'json',
    access: 'whitelisted',
    params: previewParamsSchema,
    responses: { 200: previewSchema },
    note: 'Deploys its head commit again (a preview awaiting approval stays so: approve it instead).',
  }),
  approvePreview: route({
    method: 'POST',
    path: '/api/workspace-previews/:name/:number/approve',
    kind: 'json',
    access: 'whitelisted',
    params: previewParamsSchema,
    responses: { 200: previewSchema },
    note: 'Approves its current head commit only: a later push needs a new approval. Approved previews get only the variables marked for previews.',
  }),
  removePreview: route({
    method: 'DELETE',
    path: '/api/workspace-previews/:name/:number',
    kind: 'json',
    access: 'whitelisted',
    params: previewParamsSchema,
    responses: { 200: successMessageSchema },
    note: 'Removes its containers, networks, volumes, images, routes and stored logs; a new push to the pull request brings it back.',
  }),
  listPreviewVariables: route({
    method: 'GET',
    path: '/api/workspace-preview-variables/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 200: z.array(previewVariableSchema) },
    note: 'Every variable of the workspace, with whether previews get it; never a value.',
  }),
  setPreviewVariable: route({
    method: 'PUT',
    path: '/api/workspace-preview-variables/:name/:key',
    kind: 'json',
    access: 'whitelisted',
    params: previewVariableParamsSchema,
    body: updatePreviewVariableSchema,
    responses: { 200: previewVariableSchema },
    note: 'The variable must exist (404 otherwise). Previews never get a value that is not marked for them.',
  }),
};
