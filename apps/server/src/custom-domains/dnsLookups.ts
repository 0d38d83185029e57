import type { CaaRecord } from 'node:dns';
import { Resolver } from 'node:dns/promises';

/** "No such record" in every form a resolver says it: the name has no data of that type, or does not exist. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/** A lookup that got no answer (a timeout, SERVFAIL, a refusal): it says nothing about the domain's records. */
export class DnsUnavailable extends Error {
  override name = 'DnsUnavailable';
  constructor(
    readonly queried: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${queried} failed: ${code}`);
  }
}

/** A name as DNS answers compare: lower case, no trailing dot. */
export const canonicalName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * The DNS questions custom-domain checks ask, of DNS_SERVERS (the system's resolvers when none are set). Each
 * answers the records, none when the name has none, or throws DnsUnavailable when the question went unanswered.
 * No cache here: a re-check sees what the resolvers see now.
 */
export function createDnsLookups(options: { servers: string[]; timeoutMs?: number; tries?: number }) {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2500, tries: options.tries ?? 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);

  async function ask<T>(name: string, query: () => Promise<T[]>): Promise<T[]> {
    try {
      return await query();
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'EUNKNOWN';
      if (NO_RECORDS.has(code)) return [];
      throw new DnsUnavailable(name, code);
    }
  }

  return {
    /** The CNAME target of `name`, if it is an alias. */
    async cname(name: string): Promise<string | undefined> {
      const [target] = await ask(name, () => resolver.resolveCname(name));
      return target === undefined ? undefined : canonicalName(target);
    },

    /** Its A and AAAA addresses (after any CNAMEs, which the resolver follows). */
    async addresses(name: string): Promise<string[]> {
      const [v4, v6] = await Promise.all([
        ask(name, () => resolver.resolve4(name)),
        ask(name, () => resolver.resolve6(name)),
      ]);
      return [...new Set([...v4, ...v6])];
    },

    /** Its TXT records, each one's strings joined into one value (RFC 1035 character-strings, RFC 7208 §3.3). */
    async txt(name: string): Promise<string[]> {
      return (await ask(name, () => resolver.resolveTxt(name))).map((chunks) => chunks.join(''));
    },

    async caa(name: string): Promise<CaaRecord[]> {
      return ask(name, () => resolver.resolveCaa(name));
    },
  };
}

export type DnsLookups = ReturnType<typeof createDnsLookups>;
