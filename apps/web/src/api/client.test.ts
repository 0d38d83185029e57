import { type AxiosAdapter, AxiosError, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from './client';

/** An adapter whose first `drops` calls fail as a dropped connection does (no answer), then answer 200. */
function flakyNetwork(drops: number) {
  const calls: string[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    calls.push(`${config.method} ${config.url}`);
    if (calls.length <= drops) {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    }
    return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
  };
  return { adapter, calls };
}

describe('the HTTP client after a dropped connection', () => {
  const original = api.defaults.adapter;
  afterEach(() => {
    api.defaults.adapter = original;
  });

  it('sends a read again (twice at most) and answers with what the server says', async () => {
    const network = flakyNetwork(2);
    api.defaults.adapter = network.adapter;
    expect((await api.get('/api/user')).data).toEqual({ ok: true });
    expect(network.calls).toEqual(['get /api/user', 'get /api/user', 'get /api/user']);

    const down = flakyNetwork(5);
    api.defaults.adapter = down.adapter;
    await expect(api.get('/api/user')).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(down.calls).toHaveLength(3);
  });

  it('sends a POST again only when the server answers it the same twice', async () => {
    const plain = flakyNetwork(1);
    api.defaults.adapter = plain.adapter;
    await expect(api.post('/api/enterprise', {})).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(plain.calls).toHaveLength(1);

    const start = flakyNetwork(1);
    api.defaults.adapter = start.adapter;
    const answer = await api.post('/api/workflow/deployment/start', {}, { sameAnswerIfRepeated: true });
    expect(answer.status).toBe(200);
    expect(start.calls).toHaveLength(2);
  });

  it('does not send again a request that got an answer, even an error', async () => {
    const calls: string[] = [];
    api.defaults.adapter = async (config) => {
      calls.push(String(config.url));
      throw new AxiosError(
        'Server Error',
        AxiosError.ERR_BAD_RESPONSE,
        config,
        {},
        {
          data: {},
          status: 500,
          statusText: 'Server Error',
          headers: {},
          config,
        },
      );
    };
    await expect(api.get('/api/workspaces')).rejects.toMatchObject({ response: { status: 500 } });
    expect(calls).toHaveLength(1);
  });
});
