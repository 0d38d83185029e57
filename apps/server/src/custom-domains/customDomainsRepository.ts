import { and, asc, count, eq, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { customDomains } from '../infra/db/schema.js';
import type { CustomHost } from '../infra/ingress/ingress.js';
import { SERVABLE_STATUSES, type StoredStatus } from './domainStatus.js';
import { companionOf } from './domainTarget.js';

export type CustomDomainRow = typeof customDomains.$inferSelect;
export type CustomDomainPatch = Partial<Omit<typeof customDomains.$inferInsert, 'id' | 'workspaceId'>>;

/** Fields whose change can change which names the permission endpoint allows. */
const SERVABILITY: readonly (keyof CustomDomainPatch)[] = ['status', 'verifiedAt', 'redirectWww', 'domain'];

/**
 * The one owner of `custom_domains`. `onServableChange` is called after every write that may change which
 * names are servable (the permission endpoint's cache forgets its set).
 */
export function createCustomDomainsRepository(db: Db, options: { onServableChange?: () => void } = {}) {
  const servableChanged = () => options.onServableChange?.();
  return {
    async insert(values: typeof customDomains.$inferInsert): Promise<CustomDomainRow> {
      const [row] = await db.insert(customDomains).values(values).returning();
      return row!;
    },

    listForWorkspace(workspaceId: string): Promise<CustomDomainRow[]> {
      return db
        .select()
        .from(customDomains)
        .where(eq(customDomains.workspaceId, workspaceId))
        .orderBy(asc(customDomains.createdAt), asc(customDomains.domain));
    },

    async countForWorkspace(workspaceId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(customDomains)
        .where(eq(customDomains.workspaceId, workspaceId));
      return row?.n ?? 0;
    },

    async find(workspaceId: string, domain: string): Promise<CustomDomainRow | undefined> {
      const [row] = await db
        .select()
        .from(customDomains)
        .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.domain, domain)));
      return row;
    },

    /** The claim that holds `domain` (verified it), whichever workspace's. */
    async findVerified(domain: string): Promise<CustomDomainRow | undefined> {
      const [row] = await db
        .select()
        .from(customDomains)
        .where(and(eq(customDomains.domain, domain), isNotNull(customDomains.verifiedAt)));
      return row;
    },

    /** The verified claims, in any workspace, for the name `host` exactly (not its companion). */
    listVerifiedFor(host: string): Promise<CustomDomainRow[]> {
      return db
        .select()
        .from(customDomains)
        .where(and(eq(customDomains.domain, host), isNotNull(customDomains.verifiedAt)));
    },

    /**
     * Every name the proxy may order a certificate for: verified claims whose DNS checks out, and the `www`
     * companion of those that redirect. One query on the partial index of verified domains.
     */
    async servableNames(): Promise<Set<string>> {
      const rows = await db
        .select({ domain: customDomains.domain, redirectWww: customDomains.redirectWww })
        .from(customDomains)
        .where(and(isNotNull(customDomains.verifiedAt), inArray(customDomains.status, SERVABLE_STATUSES)));
      return new Set(
        rows.flatMap((row) => (row.redirectWww ? [row.domain, companionOf(row.domain)] : [row.domain])),
      );
    },

    /** The custom hosts of the workspace's route: its verified claims (a Misconfigured one keeps its route). */
    async customHostsOf(workspaceId: string): Promise<CustomHost[]> {
      const rows = await db
        .select({
          host: customDomains.domain,
          service: customDomains.service,
          redirectWww: customDomains.redirectWww,
        })
        .from(customDomains)
        .where(and(eq(customDomains.workspaceId, workspaceId), isNotNull(customDomains.verifiedAt)))
        .orderBy(asc(customDomains.domain));
      return rows;
    },

    /** The claims whose next check is due, the longest waiting first. */
    listDue(at: Date, limit: number): Promise<CustomDomainRow[]> {
      return db
        .select()
        .from(customDomains)
        .where(lte(customDomains.nextCheckAt, at))
        .orderBy(asc(customDomains.nextCheckAt))
        .limit(limit);
    },

    /**
     * Updates a claim, only while it is in one of `statuses` when given (a certificate event or another check
     * may have moved it meanwhile); the row as written, or undefined when it was not (or is gone).
     */
    async update(
      id: string,
      patch: CustomDomainPatch,
      statuses?: readonly StoredStatus[],
    ): Promise<CustomDomainRow | undefined> {
      const [row] = await db
        .update(customDomains)
        .set(patch)
        .where(
          and(eq(customDomains.id, id), statuses ? inArray(customDomains.status, [...statuses]) : undefined),
        )
        .returning();
      if (SERVABILITY.some((field) => field in patch)) servableChanged();
      return row;
    },

    /**
     * Marks the claim verified. When another workspace's claim on the name holds it but its DNS has moved away
     * (Misconfigured), that claim is released in the same transaction with `releasedCause`: this claim proved
     * the name anew with its own TXT token. Throws a unique violation when a live claim holds it.
     */
    async markVerified(
      row: CustomDomainRow,
      patch: CustomDomainPatch & { verifiedAt: Date },
      releasedCause: string,
    ): Promise<{ row: CustomDomainRow; released: CustomDomainRow | undefined }> {
      return db
        .transaction(async (tx) => {
          const [released] = await tx
            .update(customDomains)
            .set({
              verifiedAt: null,
              status: 'pending_dns',
              cause: releasedCause,
              failedChecks: 0,
              certificateIssuer: null,
              certificateNotAfter: null,
              retryAfter: null,
            })
            .where(
              and(
                eq(customDomains.domain, row.domain),
                ne(customDomains.id, row.id),
                isNotNull(customDomains.verifiedAt),
                eq(customDomains.status, 'misconfigured'),
              ),
            )
            .returning();
          const [verified] = await tx
            .update(customDomains)
            .set(patch)
            .where(eq(customDomains.id, row.id))
            .returning();
          return { row: verified ?? row, released };
        })
        .finally(servableChanged);
    },

    async delete(workspaceId: string, domain: string): Promise<CustomDomainRow | undefined> {
      const [row] = await db
        .delete(customDomains)
        .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.domain, domain)))
        .returning();
      servableChanged();
      return row;
    },

    /** Every claim of a workspace being deleted (its route goes with its runtime). */
    async deleteForWorkspace(workspaceId: string): Promise<void> {
      await db.delete(customDomains).where(eq(customDomains.workspaceId, workspaceId));
      servableChanged();
    },
  };
}

export type CustomDomainsRepository = ReturnType<typeof createCustomDomainsRepository>;
