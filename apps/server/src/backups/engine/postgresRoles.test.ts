import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { createRoleIfMissing, existingRolesTolerated } from './postgresRoles.js';

const through = async (chunks: string[]) =>
  (
    await buffer(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(existingRolesTolerated()))
  ).toString('utf8');

describe('a dump loaded over the roles that exist', () => {
  it('creates each role only when it is missing, and keeps its ALTER ROLE', async () => {
    const dump = [
      'SET standard_conforming_strings = on;\n\nCREATE RO',
      'LE postgres;\nALTER ROLE postgres WITH SUPERUSER PASSWORD \'x\';\nCREATE ROLE "O\'Brien ""admin""";\n',
      '\\connect template1\n',
      'COPY public.notes (body) FROM stdin;\nCREATE ROLE postgres;\n\\.\n',
    ];
    const out = await through(dump);
    expect(out).toContain(
      "DO $slipway_role$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'postgres') THEN CREATE ROLE postgres; END IF; END $slipway_role$;\nALTER ROLE postgres WITH SUPERUSER PASSWORD 'x';\n",
    );
    expect(out).toContain(`rolname = 'O''Brien "admin"') THEN CREATE ROLE "O'Brien ""admin"""; END IF;`);
    // After the first \connect: the databases' rows, never rewritten.
    expect(
      out.endsWith('\\connect template1\nCOPY public.notes (body) FROM stdin;\nCREATE ROLE postgres;\n\\.\n'),
    ).toBe(true);
  });

  it('leaves any other line as it is', () => {
    expect(createRoleIfMissing('CREATE ROLE a$slipway_role$;')).toBe('CREATE ROLE a$slipway_role$;');
    expect(createRoleIfMissing('CREATE ROLE app WITH LOGIN;')).toBe('CREATE ROLE app WITH LOGIN;');
  });
});
