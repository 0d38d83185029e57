/**
 * GET /api/public-config: what the public and billing screens need to know about this installation
 * (no secrets). `payments` is 'free_beta' when no payment provider is configured.
 */
export interface PublicConfig {
  payments: 'paypal' | 'free_beta';
  /** The landing page's demo video embed URL, or null when none is configured. */
  demo_video_url: string | null;
}
