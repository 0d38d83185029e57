import { z } from 'zod';

/**
 * GET /api/public-config: what the public and billing screens need to know about this installation
 * (no secrets). `payments` is 'free_beta' when no payment provider is configured.
 */
export const publicConfigSchema = z.strictObject({
  payments: z.enum(['paypal', 'free_beta']),
  /** The landing page's demo video embed URL, or null when none is configured. */
  demo_video_url: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
