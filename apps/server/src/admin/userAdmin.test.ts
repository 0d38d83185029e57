import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin } from '../test/adminClient.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

describe.each(DATABASES)('admin: users and whitelists (%s)', (database) => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let admin: TestClient;

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({
      database,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Slipway <ops@slipway.test>' },
    });
    admin = await signInAdmin(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('whitelists a waiting user, who then gets in, and mails them the welcome', async () => {
    const { client, userId } = await signInNewUser(ctx, {
      login: 'ada',
      whitelisted: false,
      email: 'ada@example.com',
    });
    expect((await client.get('/api/user')).json().whitelisted).toBe(false);
    const waiting = (await admin.get('/api/admin/users/waiting-list')).json();
    expect(waiting.users.map((u: { login: string }) => u.login)).toContain('ada');
    expect(waiting.users[0]).toEqual({
      id: expect.any(String),
      github_id: null,
      login: 'ada',
      first_name: 'ada',
      last_name: 'Test',
      email: 'ada@example.com',
      avatar_url: null,
      whitelisted: false,
      on_waiting_list: true,
      created_at: expect.any(String),
      last_login: expect.any(String),
    });

    const before = smtp.messages.length;
    const response = await admin.post(`/api/admin/users/${userId}/whitelist`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ login: 'ada', whitelisted: true, on_waiting_list: false });
    expect(body.email_status).toEqual({
      attempted: true,
      sent: true,
      recipient: 'ada@example.com',
      error: null,
    });
    const mail = await smtp.waitFor((m) => smtp.messages.indexOf(m) >= before);
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.from).toBe('ops@slipway.test');
    expect(mail.subject).toBe("Welcome to Slipway: you're off the waiting list");
    expect(mail.raw).toContain('/repository-picker');

    expect((await client.get('/api/user')).json().whitelisted).toBe(true);
    expect(
      (await admin.get('/api/admin/users/whitelisted')).json().users.map((u: { id: string }) => u.id),
    ).toContain(userId);

    // And back to the waiting list.
    const removed = await admin.delete(`/api/admin/users/${userId}/whitelist`);
    expect(removed.json().user).toMatchObject({ whitelisted: false, on_waiting_list: true });
    expect((await client.get('/api/user')).json().whitelisted).toBe(false);
  });

  it('reports a user without an email, and an unknown user', async () => {
    const { userId } = await signInNewUser(ctx, { whitelisted: false, email: null });
    const body = (await admin.post(`/api/admin/users/${userId}/whitelist`)).json();
    expect(body.email_status).toMatchObject({
      attempted: false,
      sent: false,
      recipient: null,
      note: 'No email sent (user has no email address)',
    });
    const missing = await admin.post('/api/admin/users/7b0e3c1e-0000-4000-8000-000000000000/whitelist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('User not found');
    expect((await admin.post('/api/admin/users/not-a-uuid/whitelist')).statusCode).toBe(404);
  });

  it('bulk-whitelists an array of ids (or {user_ids}) and summarises what happened', async () => {
    const a = await signInNewUser(ctx, { whitelisted: false, email: 'bulk-a@example.com' });
    const b = await signInNewUser(ctx, { whitelisted: false, email: null });
    const c = await signInNewUser(ctx, { whitelisted: false, email: 'bulk-c@example.com' });
    const before = smtp.messages.length;
    const response = await admin.post('/api/admin/users/bulk-whitelist', [a.userId, b.userId, 'nope']);
    expect(response.statusCode).toBe(200);
    const { results, summary } = response.json();
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ user_id: a.userId, status: 'success', email_status: { sent: true } });
    expect(results[1]).toMatchObject({
      user_id: b.userId,
      status: 'success',
      email_status: { attempted: false },
    });
    expect(results[2]).toMatchObject({ user_id: 'nope', status: 'error', error: 'User not found' });
    expect(summary).toEqual({
      total: 3,
      whitelisted: 2,
      failed: 1,
      emails_sent: 1,
      emails_failed: 0,
      no_email: 1,
    });
    const mail = await smtp.waitFor((m) => smtp.messages.indexOf(m) >= before);
    expect(mail.to).toEqual(['bulk-a@example.com']);

    const wrapped = await admin.post('/api/admin/users/bulk-whitelist', { user_ids: [c.userId] });
    expect(wrapped.json().summary.whitelisted).toBe(1);
    expect((await c.client.get('/api/user')).json().whitelisted).toBe(true);
    expect((await admin.post('/api/admin/users/bulk-whitelist', [])).statusCode).toBe(400);
    expect((await admin.post('/api/admin/users/bulk-whitelist', { nothing: true })).statusCode).toBe(400);
  });

  it('manages the email whitelist: add (lowercased), duplicate, list, remove by URL-encoded email', async () => {
    const add = await admin.post('/api/admin/whitelist/emails', {
      email: '  Grace+Beta@Example.com ',
      notes: ' friend of the team ',
      added_by: 'admin',
    });
    expect(add.statusCode).toBe(200);
    expect(add.json().email).toMatchObject({ email: 'grace+beta@example.com', notes: 'friend of the team' });

    const duplicate = await admin.post('/api/admin/whitelist/emails', { email: 'GRACE+beta@example.com' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('That email is already on the whitelist');
    const invalid = await admin.post('/api/admin/whitelist/emails', { email: 'not an email', notes: null });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('Please enter a valid email address');

    const list = (await admin.get('/api/admin/whitelist/emails')).json();
    expect(list.emails).toEqual([
      {
        email: 'grace+beta@example.com',
        notes: 'friend of the team',
        added_by: 'admin',
        added_at: expect.any(String),
      },
    ]);

    const removed = await admin.delete(
      `/api/admin/whitelist/emails/${encodeURIComponent('grace+beta@example.com')}`,
    );
    expect(removed.statusCode).toBe(200);
    expect((await admin.get('/api/admin/whitelist/emails')).json().emails).toEqual([]);
    expect((await admin.delete('/api/admin/whitelist/emails/nobody%40example.com')).statusCode).toBe(404);
  });

  it('adding an email lets in a waiting user who completed their profile with it', async () => {
    const { client } = await signInNewUser(ctx, { whitelisted: false, email: 'Waiting.Person@example.com' });
    const add = await admin.post('/api/admin/whitelist/emails', {
      email: 'waiting.person@example.com',
      notes: null,
    });
    expect(add.json().whitelisted_users).toHaveLength(1);
    expect((await client.get('/api/user')).json().whitelisted).toBe(true);
  });
});
