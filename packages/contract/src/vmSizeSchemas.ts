import { z } from 'zod';
import { PLAN_CODES, VM_SIZE_IDS } from './vmSizes.js';

export const vmSizeSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** US dollars per month. */
  price: z.number().min(0),
  description: z.string(),
  specs: z.string(),
  planCode: z.enum(PLAN_CODES),
  vcpus: z.number().int().positive(),
  memoryMb: z.number().int().positive(),
});

export const vmSizeIdSchema = z.enum(VM_SIZE_IDS, {
  error: `Unknown VM size: choose ${VM_SIZE_IDS.join(' or ')}`,
});
