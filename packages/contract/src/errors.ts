import { z } from 'zod';

/** Every error answer of the API has this shape; the web app reads `error`, `detail` and `redirect`. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  detail: z.string().optional(),
  redirect: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
