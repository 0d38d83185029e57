import type { RouteHandlers } from '../http/registerRoutes.js';
import type { PreviewsModule } from './previewsModule.js';

export function previewRoutes(deps: { previews: PreviewsModule }) {
  const { service } = deps.previews;
  return {
    getPreviewSettings: ({ user, params }) => service.getSettings(user, params.name),
    setPreviewSettings: ({ user, params, body }) => service.setSettings(user, params.name, body),
    listPreviews: ({ user, params }) => service.list(user, params.name),
    redeployPreview: ({ user, params }) => service.redeploy(user, params.name, params.number),
    approvePreview: ({ user, params }) => service.approve(user, params.name, params.number),
    removePreview: ({ user, params }) => service.remove(user, params.name, params.number),
    listPreviewVariables: ({ user, params }) => service.listVariables(user, params.name),
    setPreviewVariable: ({ user, params, body }) => service.setVariable(user, params.name, params.key, body),
  } satisfies Partial<RouteHandlers>;
}
