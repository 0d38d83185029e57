// Plain data, no zod: the landing page and the header read this catalogue, and a schema here would
// put zod in the first JavaScript every visitor loads. Its schemas are in vmSizeSchemas.ts.
import type { z } from 'zod';
import type { vmSizeSchema } from './vmSizeSchemas.js';

export const PLAN_CODES = ['BASIC_1GB', 'PRO_4GB'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

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

export const VM_SIZE_IDS = ['Standard_B2ats_v2', 'Standard_B2als_v2'] as const;

export const DEFAULT_VM_SIZE = 'Standard_B2ats_v2';

export function findVmSize(id: string): VmSize | undefined {
  return VM_SIZES.find((size) => size.id === id);
}

/** What a workspace costs a month: its VM size's price for each of its nodes (VMs). */
export function monthlyPrice(size: Pick<VmSize, 'price'>, nodes: number): number {
  return size.price * nodes;
}

/** Standard_B2ats_v2 → BASIC_1GB, Standard_B2als_v2 → PRO_4GB, anything else → BASIC_1GB. */
export function planCodeFor(vmSizeId: string): PlanCode {
  return findVmSize(vmSizeId)?.planCode ?? 'BASIC_1GB';
}
