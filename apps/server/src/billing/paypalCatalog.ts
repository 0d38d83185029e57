import { CURRENCY, type PlanCode, planByCode } from '@slipway/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { billingProviderRefs } from '../infra/db/schema.js';
import type { PaypalApi } from '../infra/paypal/paypalApi.js';

const PROVIDER = 'paypal';
/**
 * Bump when a plan's price or shape changes: new plans get created, old subscriptions keep theirs. v2: plans
 * support a quantity (one unit per node).
 */
const CATALOG_VERSION = 'v2';

/**
 * The PayPal catalog product and one billing plan per plan code, each created once and remembered in
 * `billing_provider_refs`. Deterministic PayPal-Request-Ids make two replicas racing to create the
 * same object get the same one back from PayPal; the table keeps the first id stored.
 */
export function createPaypalCatalog(deps: { db: Db; paypal: PaypalApi }) {
  const inFlight = new Map<string, Promise<string>>();

  async function remembered(key: string): Promise<string | undefined> {
    const [row] = await deps.db
      .select({ ref: billingProviderRefs.ref })
      .from(billingProviderRefs)
      .where(and(eq(billingProviderRefs.provider, PROVIDER), eq(billingProviderRefs.key, key)));
    return row?.ref;
  }

  async function remember(key: string, ref: string): Promise<string> {
    await deps.db.insert(billingProviderRefs).values({ provider: PROVIDER, key, ref }).onConflictDoNothing();
    return (await remembered(key)) ?? ref;
  }

  /** Looks `key` up, creating it with `create` the first time; concurrent callers share one creation. */
  function once(key: string, create: () => Promise<string>): Promise<string> {
    const running = inFlight.get(key);
    if (running) return running;
    const work = (async () => (await remembered(key)) ?? remember(key, await create()))().finally(() =>
      inFlight.delete(key),
    );
    inFlight.set(key, work);
    return work;
  }

  const productId = () =>
    once(`product:${CATALOG_VERSION}`, () =>
      deps.paypal.createProduct({
        name: 'Slipway VM hosting',
        description: 'Docker Compose hosting on a dedicated virtual machine, billed monthly by VM size',
        requestId: `slipway-product-${CATALOG_VERSION}`,
      }),
    );

  return {
    productId,

    planId(code: PlanCode): Promise<string> {
      const plan = planByCode(code);
      if (!plan) throw new Error(`No plan ${code} in the catalogue`);
      return once(`plan:${code}:${CATALOG_VERSION}`, async () =>
        deps.paypal.createPlan(
          {
            productId: await productId(),
            name: `Slipway ${plan.name}`,
            description: `${plan.specs}, $${plan.priceUsd} a month for each node`,
            price: plan.priceUsd.toFixed(2),
            currency: CURRENCY,
          },
          `slipway-plan-${code}-${CATALOG_VERSION}`,
        ),
      );
    },
  };
}

export type PaypalCatalog = ReturnType<typeof createPaypalCatalog>;
