import { z } from 'zod';

/** Building blocks of response schemas, shared by every area. */

/** A moment as the server writes it: `Date.toISOString()` (offsets accepted too). */
export const timestampSchema = z.iso.datetime({ offset: true });

/** `{success: true}` and nothing else. */
export const successSchema = z.strictObject({ success: z.literal(true) });

/** `{success: true, message}`: an action done, said in words. */
export const successMessageSchema = successSchema.extend({ message: z.string() });

/** Service name → public URL. */
export const serviceUrlsSchema = z.record(z.string(), z.string());
