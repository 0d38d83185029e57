import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';

/**
 * Issue 39: every bad backup schedule is a 4xx sentence that names what is wrong — a cron expression that never
 * fires included (it was a 500) — never a validator's phrase such as "expected boolean, received undefined".
 */
describe('backup schedule validation', () => {
  let ctx: TestContext;
  let owner: { client: TestClient; userId: string };
  let name: string;
  const good = { enabled: true, schedule: { kind: 'daily', time: '03:00' }, keep_daily: 7, keep_weekly: 4 };
  const put = async (body: unknown) => {
    const response = await owner.client.put(`/api/workspace-backup-settings/${name}`, body as object);
    return [response.statusCode, response.json().error as string] as const;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await signInNewUser(ctx);
    name = (await insertWorkspace(ctx.platform, { userId: owner.userId, withVm: false })).name;
  });
  afterAll(async () => ctx?.close());

  it('refuses a cron expression that never fires, and names the field of one that is wrong', async () => {
    const cron = (expression: string) => put({ ...good, schedule: { kind: 'cron', expression } });
    expect(await cron('0 0 31 4,6,9,11 *')).toEqual([
      422,
      'The cron expression "0 0 31 4,6,9,11 *" never fires: no date has the day of month it asks for in a month it allows (e.g. the 31st of a 30-day month). Choose a day every month it allows has.',
    ]);
    expect(await cron('0 0 30 2 *')).toEqual([422, expect.stringContaining('never fires')]);
    expect(await cron('0 25 * * *')).toEqual([
      422,
      'The cron expression "0 25 * * *" cannot be read: its hour field is "25", and it takes 0-23, a list (1,15), a range (1-5) or a step (*/10).',
    ]);
    expect((await cron('0 3 * * 1-5'))[0]).toBe(200);
  });

  it('says which field is missing or wrong, for every field', async () => {
    const cases: [unknown, string][] = [
      [{ ...good, enabled: undefined }, 'Say whether scheduled backups are on: enabled is true or false'],
      [{ ...good, enabled: 'yes' }, 'Say whether scheduled backups are on: enabled is true or false'],
      [
        { ...good, schedule: undefined },
        'Choose a schedule: {"kind": "daily", "time": "03:00"} or {"kind": "cron", "expression": "0 3 * * *"}',
      ],
      [
        { ...good, schedule: { kind: 'weekly' } },
        'Choose a schedule: {"kind": "daily", "time": "03:00"} or {"kind": "cron", "expression": "0 3 * * *"}',
      ],
      [{ ...good, schedule: { kind: 'daily' } }, 'Enter a time of day as HH:MM, e.g. 03:00'],
      [{ ...good, schedule: { kind: 'daily', time: '24:00' } }, 'Enter a time of day as HH:MM, e.g. 03:00'],
      [
        { ...good, schedule: { kind: 'cron' } },
        'Enter a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. 0 3 * * *',
      ],
      [{ ...good, keep_daily: undefined }, 'Keep a whole number of daily backups, from 1 to 365'],
      [{ ...good, keep_daily: 1.5 }, 'Keep a whole number of daily backups, from 1 to 365'],
      [{ ...good, keep_daily: 0 }, 'Keep at least 1 daily backup'],
      [{ ...good, keep_weekly: '4' }, 'Keep a whole number of weekly backups, from 0 to 520'],
      [{ ...good, keep_weekly: 521 }, 'Keep a whole number of weekly backups, from 0 to 520'],
    ];
    for (const [body, sentence] of cases) expect([body, ...(await put(body))]).toEqual([body, 400, sentence]);
  });
});
