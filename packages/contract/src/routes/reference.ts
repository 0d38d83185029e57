import { openApiDocumentSchema } from '../openApiDocument.js';
import { route } from '../route.js';

/** The API's own description. */
export const referenceRoutes = {
  openApiDocument: route({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'Read this description of the API',
    kind: 'json',
    access: 'public',
    responses: { 200: openApiDocumentSchema },
    note: 'This document: every route of the API as OpenAPI 3.1, generated from the contract’s route table. The web app shows it at /api-reference.',
  }),
};
