import { z } from 'zod';

/**
 * The shape of the OpenAPI 3.1 document GET /api/openapi.json answers (openapi.ts builds it): the parts
 * Slipway writes, each object open to the rest of the specification. The web app's API reference reads it
 * through these types.
 */

/** A JSON Schema (2020-12) as z.toJSONSchema writes it: the keywords a reader shows, any other kept. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  [keyword: string]: unknown;
}

export const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    description: z.string().optional(),
    format: z.string().optional(),
    properties: z.record(z.string(), jsonSchemaSchema).optional(),
    required: z.array(z.string()).optional(),
    items: jsonSchemaSchema.optional(),
    prefixItems: z.array(jsonSchemaSchema).optional(),
    anyOf: z.array(jsonSchemaSchema).optional(),
    oneOf: z.array(jsonSchemaSchema).optional(),
    allOf: z.array(jsonSchemaSchema).optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaSchema]).optional(),
    enum: z.array(z.unknown()).optional(),
  }),
);

const mediaTypeSchema = z.looseObject({ schema: jsonSchemaSchema });
const contentSchema = z.record(z.string(), mediaTypeSchema);

export const openApiParameterSchema = z.looseObject({
  name: z.string(),
  in: z.enum(['path', 'query', 'header', 'cookie']),
  required: z.boolean(),
  description: z.string().optional(),
  schema: jsonSchemaSchema,
});

export const openApiResponseSchema = z.looseObject({
  description: z.string(),
  headers: z
    .record(z.string(), z.looseObject({ description: z.string().optional(), schema: jsonSchemaSchema }))
    .optional(),
  content: contentSchema.optional(),
});

/** Who may call, as the route table says: anyone, a signed-in user, a whitelisted user or an admin session. */
export const openApiAccessSchema = z.enum(['public', 'user', 'whitelisted', 'admin', 'loopback']);

export const openApiOperationSchema = z.looseObject({
  operationId: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()),
  parameters: z.array(openApiParameterSchema).optional(),
  requestBody: z
    .looseObject({ description: z.string().optional(), required: z.boolean(), content: contentSchema })
    .optional(),
  responses: z.record(z.string(), openApiResponseSchema),
  /** Each entry one way to authenticate (schemes in one entry together); `[]` for a public route. */
  security: z.array(z.record(z.string(), z.array(z.string()))),
  'x-slipway-access': openApiAccessSchema,
  'x-slipway-kind': z.enum(['json', 'sse', 'redirect', 'webhook']),
});

export const OPENAPI_METHODS = ['get', 'post', 'put', 'delete'] as const;
export type OpenApiMethod = (typeof OPENAPI_METHODS)[number];

export const openApiSecuritySchemeSchema = z.looseObject({
  type: z.enum(['apiKey', 'http']),
  description: z.string(),
  name: z.string().optional(),
  in: z.enum(['cookie', 'header', 'query']).optional(),
  scheme: z.string().optional(),
  bearerFormat: z.string().optional(),
});

export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.looseObject({ url: z.string(), description: z.string().optional() })),
  tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })),
  paths: z.record(z.string(), z.partialRecord(z.enum(OPENAPI_METHODS), openApiOperationSchema)),
  components: z.looseObject({
    schemas: z.record(z.string(), jsonSchemaSchema),
    securitySchemes: z.record(z.string(), openApiSecuritySchemeSchema),
  }),
});

export type OpenApiParameter = z.output<typeof openApiParameterSchema>;
export type OpenApiResponse = z.output<typeof openApiResponseSchema>;
export type OpenApiOperation = z.output<typeof openApiOperationSchema>;
export type OpenApiSecurityScheme = z.output<typeof openApiSecuritySchemeSchema>;
export type OpenApiDocument = z.output<typeof openApiDocumentSchema>;
