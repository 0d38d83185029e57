/** The token of an `Authorization: Bearer …` header, or undefined when the request has none. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed header is a wrong token, not an absent one: it must not fall back to the cookie session.
  return match ? match[1]! : header;
}
