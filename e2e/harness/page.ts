import type { Page } from 'playwright-core';
import { recentBrowserEvents, screenshot } from './browser.js';

/** On a failed expectation: a screenshot and the start of the page's text, so the failure explains itself. */
async function describeFailure(page: Page, what: string): Promise<string> {
  const name = `failure-${Date.now()}`;
  await screenshot(page, name).catch(() => undefined);
  const body = await page
    .locator('body')
    .textContent({ timeout: 2_000 })
    .catch(() => '(no body)');
  const events = recentBrowserEvents(page);
  return `${what} (screenshot e2e/screenshots/${name}.png). Page text: ${(body ?? '').replace(/\s+/g, ' ').slice(0, 400)}${
    events.length > 0 ? `\nWhat the browser saw last:\n  ${events.join('\n  ')}` : ''
  }`;
}

/**
 * Waits until some visible element shows exactly this text (the spec's texts are exact; pass a RegExp
 * for text with live numbers in it); throws (failing the test) otherwise.
 */
export async function expectText(page: Page, text: string | RegExp, options: { timeout?: number } = {}) {
  try {
    await page
      .getByText(text, { exact: true })
      .filter({ visible: true })
      .first()
      .waitFor({ state: 'visible', timeout: options.timeout ?? 15_000 });
  } catch {
    throw new Error(await describeFailure(page, `Expected to see "${text}" on ${page.url()}`));
  }
}

export async function expectTexts(page: Page, texts: (string | RegExp)[]) {
  for (const text of texts) await expectText(page, text);
}

/**
 * Holds the responses to requests matching `url` until `release()` is called, so a test can observe the
 * screen while a call is in flight (a loading label) without guessing how long to wait.
 */
export async function holdResponses(page: Page, url: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const continued: Promise<void>[] = [];
  await page.route(url, (route) => {
    const done = released.then(() => route.continue());
    continued.push(done);
    return done;
  });
  return {
    /** Lets the held requests through, then stops holding (after they went on, so none is handled twice). */
    async release() {
      release();
      await Promise.all(continued);
      await page.unroute(url);
    },
  };
}

/** Waits for the browser to be on this path (query ignored). */
export async function expectPath(page: Page, pathname: string, timeout = 15_000) {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout });
  } catch {
    throw new Error(
      await describeFailure(page, `Expected to be on ${pathname}, but the browser is on ${page.url()}`),
    );
  }
}
