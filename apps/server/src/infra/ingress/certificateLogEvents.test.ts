import { describe, expect, it } from 'vitest';
import { certificateEventReader, parseCertificateLogLine, retryAfterIn } from './certificateLogEvents.js';

// Lines Caddy 2.6.2 wrote through its `net` log writer while ordering from pebble 2.4 (Debian's packages).
const obtained = [
  '{"level":"info","ts":1795791950.9898782,"logger":"tls.on_demand","msg":"obtaining new certificate","remote_ip":"127.0.0.1","remote_port":"44630","server_name":"shop.test"}',
  '{"level":"info","ts":1795791950.9947536,"logger":"tls.obtain","msg":"obtaining certificate","identifier":"shop.test"}',
  '{"level":"info","ts":1795791951.0043225,"logger":"http.acme_client","msg":"trying to solve challenge","identifier":"shop.test","challenge_type":"tls-alpn-01","ca":"https://127.0.0.1:14100/dir"}',
  '{"level":"info","ts":1795791951.2587807,"logger":"http.acme_client","msg":"validations succeeded; finalizing order","order":"https://127.0.0.1:14100/my-order/Nqth1OLeaHb2corIy7Qs9C_rasS5AV0N4yn0M2vR77Q"}',
  '{"level":"info","ts":1795791951.7650952,"logger":"tls.obtain","msg":"certificate obtained successfully","identifier":"shop.test"}',
  '{"level":"info","ts":1795791951.7651596,"logger":"tls.obtain","msg":"releasing lock","identifier":"shop.test"}',
];

/** The name does not resolve: Caddy's failure line carries the CA's problem. */
const unresolvable = [
  '{"level":"info","ts":1795792173.3,"logger":"tls.obtain","msg":"obtaining certificate","identifier":"fail3.test"}',
  '{"level":"error","ts":1795792173.575477,"logger":"http.acme_client","msg":"challenge failed","identifier":"fail3.test","challenge_type":"tls-alpn-01","status_code":400,"problem_type":"urn:ietf:params:acme:error:malformed","error":"Could not resolve URL \\"fail3.test\\""}',
  '{"level":"error","ts":1795792173.5755603,"logger":"http.acme_client","msg":"validating authorization","identifier":"fail3.test","error":"[fail3.test] authorization failed: HTTP 400 urn:ietf:params:acme:error:malformed - Could not resolve URL \\"fail3.test\\"","order":"https://127.0.0.1:14100/my-order/wYQ_v_d8HPg7VrDjO4pI1K1hNNNbD35e9cV37o2SRBU","attempt":1,"max_attempts":3}',
  '{"level":"error","ts":1795792173.5757096,"logger":"tls.obtain","msg":"could not get certificate from issuer","identifier":"fail3.test","issuer":"127.0.0.1:14100-dir","error":"HTTP 400 urn:ietf:params:acme:error:malformed - Could not resolve URL \\"fail3.test\\""}',
  '{"level":"error","ts":1795792173.5758657,"logger":"tls.obtain","msg":"will retry","error":"[fail3.test] Obtain: [fail3.test] solving challenge: fail3.test: [fail3.test] authorization failed: HTTP 400 urn:ietf:params:acme:error:malformed - Could not resolve URL \\"fail3.test\\" (ca=https://127.0.0.1:14100/dir)","attempt":1,"retrying_in":60,"elapsed":0.262555596,"max_duration":2592000}',
];

/** Nothing listens where the CA validates: Caddy's own failure line only says no solver is left. */
const unreachable = [
  '{"level":"info","ts":1795792178.3,"logger":"tls.obtain","msg":"obtaining certificate","identifier":"fail4.test"}',
  '{"level":"error","ts":1795792178.5918756,"logger":"http.acme_client","msg":"challenge failed","identifier":"fail4.test","challenge_type":"http-01","status_code":400,"problem_type":"urn:ietf:params:acme:error:connection","error":"Get \\"http://fail4.test:14181/.well-known/acme-challenge/PycGgtb93zwHYAsE-E5NMriaOQ_KTXaelQqqFg1rl8w\\": dial tcp 127.0.0.1:14181: connect: connection refused"}',
  '{"level":"error","ts":1795792178.591946,"logger":"http.acme_client","msg":"validating authorization","identifier":"fail4.test","error":"authorization failed: HTTP 400 urn:ietf:params:acme:error:connection - Get \\"http://fail4.test:14181/.well-known/acme-challenge/PycGgtb93zwHYAsE-E5NMriaOQ_KTXaelQqqFg1rl8w\\": dial tcp 127.0.0.1:14181: connect: connection refused","order":"https://127.0.0.1:14100/my-order/tm7S1Rri8knosnlwM5JIkpuYQhBPZkldp0ez__wV6o0","attempt":1,"max_attempts":3}',
  '{"level":"error","ts":1795792179.8482506,"logger":"http.acme_client","msg":"challenge failed","identifier":"fail4.test","challenge_type":"tls-alpn-01","status_code":403,"problem_type":"urn:ietf:params:acme:error:unauthorized","error":"Failed to connect to 127.0.0.1:14144 for the tls-alpn-01 challenge"}',
  '{"level":"error","ts":1795792180.851322,"logger":"tls.obtain","msg":"could not get certificate from issuer","identifier":"fail4.test","issuer":"127.0.0.1:14100-dir","error":"[fail4.test] solving challenges: fail4.test: no solvers available for remaining challenges (configured=[http-01 tls-alpn-01] offered=[dns-01 tls-alpn-01 http-01] remaining=[dns-01]) (order=https://127.0.0.1:14100/my-order/ZcGlJBLi4YE9xwXExa9kby7nBXP2l7p4jJvTX9V28f4) (ca=https://127.0.0.1:14100/dir)"}',
];

/** Let's Encrypt has no test double here: its rate-limit problem in the shape Caddy logs it (acmez's wording). */
const rateLimited = (detail: string) =>
  JSON.stringify({
    level: 'error',
    ts: 1795792200.1,
    logger: 'tls.obtain',
    msg: 'could not get certificate from issuer',
    identifier: 'shop.example.com',
    issuer: 'acme-v02.api.letsencrypt.org-directory',
    error: `HTTP 429 urn:ietf:params:acme:error:rateLimited - ${detail}`,
  });

const eventsOf = (lines: string[]) => {
  const read = certificateEventReader();
  return lines.map(read).filter((event) => event !== undefined);
};

describe("Caddy's certificate log", () => {
  it('says a certificate was obtained, once', () => {
    expect(eventsOf(obtained)).toEqual([{ host: 'shop.test', kind: 'obtained' }]);
  });

  it("passes on the CA's problem in its own words", () => {
    expect(eventsOf(unresolvable)).toEqual([
      {
        host: 'fail3.test',
        kind: 'failed',
        message: 'Could not resolve URL "fail3.test"',
        problem: 'malformed',
        retryAfter: undefined,
      },
    ]);
  });

  it('says what the CA said of each challenge when Caddy only says no solver is left', () => {
    expect(eventsOf(unreachable)).toEqual([
      {
        host: 'fail4.test',
        kind: 'failed',
        message:
          'http-01: Get "http://fail4.test:14181/.well-known/acme-challenge/PycGgtb93zwHYAsE-E5NMriaOQ_KTXaelQqqFg1rl8w": ' +
          'dial tcp 127.0.0.1:14181: connect: connection refused; ' +
          'tls-alpn-01: Failed to connect to 127.0.0.1:14144 for the tls-alpn-01 challenge',
        problem: 'connection',
      },
    ]);
  });

  it("forgets an earlier attempt's challenges when Caddy tries again", () => {
    const [attempt, ...rest] = unreachable;
    const failedLine = rest.at(-1)!;
    const events = eventsOf([attempt!, ...rest.slice(0, -1), attempt!, failedLine]);
    expect(events).toEqual([
      expect.objectContaining({
        host: 'fail4.test',
        message: expect.stringMatching(/^\[fail4.test\] solving/),
      }),
    ]);
  });

  it("reads the time to retry from Let's Encrypt's rate-limit messages, old and new", () => {
    const newer =
      'too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, ' +
      'retry after 2025-07-02 04:04:50 UTC: see https://letsencrypt.org/docs/rate-limits/#new-certificates-per-exact-set-of-hostnames';
    const older =
      'Error creating new order :: too many certificates already issued for "example.com". ' +
      'Retry after 2023-08-04T12:00:00Z: see https://letsencrypt.org/docs/rate-limits/';
    expect(eventsOf([rateLimited(newer)])).toEqual([
      {
        host: 'shop.example.com',
        kind: 'failed',
        message: newer,
        problem: 'rateLimited',
        retryAfter: new Date('2025-07-02T04:04:50Z'),
      },
    ]);
    expect(parseCertificateLogLine(rateLimited(older))).toMatchObject({
      retryAfter: new Date('2023-08-04T12:00:00Z'),
    });
    // A limit that names no time has none.
    expect(
      parseCertificateLogLine(
        rateLimited('Error creating new order :: too many failed authorizations recently'),
      ),
    ).toMatchObject({ problem: 'rateLimited', retryAfter: undefined });
    expect(retryAfterIn('retry after tomorrow')).toBeUndefined();
  });

  it('ignores what is not about a certificate, and what is not JSON', () => {
    expect(parseCertificateLogLine(obtained[0]!)).toBeUndefined(); // the handshake's line names no identifier
    expect(parseCertificateLogLine('{"msg":"server running","name":"slipway"}')).toBeUndefined();
    expect(parseCertificateLogLine('null')).toBeUndefined();
    expect(parseCertificateLogLine('not json')).toBeUndefined();
  });
});
