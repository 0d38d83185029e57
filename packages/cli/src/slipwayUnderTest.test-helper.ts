import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TokenScope } from '@slipway/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { useEngineWorld } from '../../../apps/server/src/test/engineWorld.js';
import { type CliRun, cleanEnv, runCli } from './cliProcess.test-helper.js';

/**
 * For a Docker test file of the CLI: a real Slipway (useEngineWorld) listening on loopback, a token of `scopes`,
 * a config directory of the file's own, and the `bin` run as a CI job runs it (SLIPWAY_URL and SLIPWAY_TOKEN).
 * Read the fields inside tests (they are set in `beforeAll`).
 */
export function useSlipwayForCli(scopes: TokenScope[]) {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' });
  const state = { url: '', token: '', configHome: '' };

  /** A token of these scopes only. */
  const tokenOf = async (only: TokenScope[]) => {
    const created = await engine.client.post('/api/api-tokens', {
      name: only.join(' '),
      scopes: only,
      expires_in_days: 1,
    });
    expect(created.statusCode).toBe(201);
    return (created.json() as { token: string }).token;
  };
  /** The environment without a server or token: a config directory of its own only. */
  const baseEnv = (extra: Record<string, string> = {}) =>
    cleanEnv({ XDG_CONFIG_HOME: state.configHome, ...extra });
  /** The environment a CI job gives it: the server and the token. */
  const ciEnv = () => baseEnv({ SLIPWAY_URL: state.url, SLIPWAY_TOKEN: state.token });
  const cli = (args: string[], env: Record<string, string> = ciEnv()): Promise<CliRun> => runCli(args, env);
  /** Runs a --json command that must succeed and parses its whole stdout with `shape`. */
  async function json<T>(args: string[], shape: z.ZodType<T>): Promise<T> {
    const run = await cli([...args, '--json']);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    return shape.parse(JSON.parse(run.stdout));
  }

  beforeAll(async () => {
    await engine.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    state.url = `http://127.0.0.1:${(engine.ctx.app.server.address() as AddressInfo).port}`;
    state.token = await tokenOf(scopes);
    state.configHome = mkdtempSync(path.join(tmpdir(), 'slipway-cli-config-'));
  });
  afterAll(() => {
    if (state.configHome) rmSync(state.configHome, { recursive: true, force: true });
  });

  return {
    engine,
    get url() {
      return state.url;
    },
    get token() {
      return state.token;
    },
    get configHome() {
      return state.configHome;
    },
    tokenOf,
    baseEnv,
    ciEnv,
    cli,
    json,
  };
}
