import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverGithubEvent } from '../test/githubDeliveries.js';
import { githubIssueCommentPayload, githubPullRequestPayload } from '../test/pullRequestDeliveries.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, type TestContext } from '../test/testPlatform.js';

const SECRET = randomBytes(20).toString('hex');
const SHA = 'a'.repeat(40);

/**
 * Issue 39, item 4: a signed delivery with a pull request number past the previews table's 32-bit column (no
 * number GitHub makes) was a 500. It is refused in words, stores nothing, and a redelivery is refused again.
 */
describe.each(DATABASES)('pull request numbers from GitHub (%s)', (database) => {
  let ctx: TestContext;
  let github: TestClient;

  beforeAll(async () => {
    ctx = await createTestContext({ database, env: { GITHUB_WEBHOOK_SECRET: SECRET } });
    github = new TestClient(ctx.app);
  });
  afterAll(async () => ctx?.close());

  const pullRequest = (number: number, title?: string) =>
    githubPullRequestPayload({ action: 'opened', owner: 'octo', repo: 'shop', number, sha: SHA, title });

  it('refuses a number past 1,000,000,000 with a sentence, each time it is delivered', async () => {
    const deliveryId = randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await deliverGithubEvent(github, SECRET, 'pull_request', pullRequest(3_000_000_000), {
        deliveryId,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        code: 'invalid_request',
        error: 'Pull request number 3000000000 is past the largest Slipway takes (1,000,000,000)',
      });
    }
    const comment = await deliverGithubEvent(
      github,
      SECRET,
      'issue_comment',
      githubIssueCommentPayload({
        owner: 'octo',
        repo: 'shop',
        number: 2 ** 31,
        body: '/slipway preview',
        login: 'octo',
        association: 'OWNER',
      }),
    );
    expect(comment.statusCode).toBe(400);
    // The largest number it takes is read as any other.
    const largest = await deliverGithubEvent(github, SECRET, 'pull_request', pullRequest(1_000_000_000));
    expect(largest.json()).toMatchObject({ status: 'ignored' });
  });

  it('refuses text the database cannot store, naming the field', async () => {
    const answer = await deliverGithubEvent(github, SECRET, 'pull_request', pullRequest(7, 'fix\u0000it'));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe(
      'The field "pull_request.title" holds a NUL character, which Slipway cannot store',
    );
  });
});
