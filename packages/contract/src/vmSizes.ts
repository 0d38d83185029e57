import { z } from 'zod';

export const PLAN_CODES = ['BASIC_1GB', 'PRO_4GB'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

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
export type VmSize = z.infer<typeof vmSizeSchema>;

/** The one catalogue of VM sizes; every screen and the billing plans read it. */
export const VM_SIZES: readonly VmSize[] = [
  {
    id: 'Standard_B2ats_v2',
    name: '1 GB RAM',
    price: 12,
    description: 'Small apps and development',
    specs: '2 vCPUs, 1 GB RAM',
    planCode: 'BASIC_1GB',
    vcpus: 2,
    memoryMb: 1024,
  },
  {
    id: 'Standard_B2als_v2',
    name: '4 GB RAM',
    price: 30,
    description: 'Production',
    specs: '2 vCPUs, 4 GB RAM',
    planCode: 'PRO_4GB',
    vcpus: 2,
    memoryMb: 4096,
  },
];

export const DEFAULT_VM_SIZE = 'Standard_B2ats_v2';

export const vmSizeIdSchema = z.enum(['Standard_B2ats_v2', 'Standard_B2als_v2'], {
  error: 'Unknown VM size: choose Standard_B2ats_v2 or Standard_B2als_v2',
});

export function findVmSize(id: string): VmSize | undefined {
  return VM_SIZES.find((size) => size.id === id);
}

/** Standard_B2ats_v2 → BASIC_1GB, Standard_B2als_v2 → PRO_4GB, anything else → BASIC_1GB. */
export function planCodeFor(vmSizeId: string): PlanCode {
  return findVmSize(vmSizeId)?.planCode ?? 'BASIC_1GB';
}
