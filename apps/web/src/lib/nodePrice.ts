import { monthlyPrice, type VmSize } from '@slipway/contract';

/** "$12/month" for one node; "$36/month (3 × $12)" for three: each node is a VM of the size, at its price. */
export function priceText(size: Pick<VmSize, 'price'>, nodes: number): string {
  const total = `$${monthlyPrice(size, nodes)}/month`;
  return nodes > 1 ? `${total} (${nodes} × $${size.price})` : total;
}
