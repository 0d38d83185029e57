import type { Page } from 'playwright-core';
import { screenshot } from './browser.js';

/** On a failed expectation: a screenshot and the start of the page's text, so the failure explains itself. */
async function describeFailure(page: Page, what: string): Promise<string> {
  const name = `failure-${Date.now()}`;
  await screenshot(page, name).catch(() => undefined);
  const body = await page
    .locator('body')
    .textContent({ timeout: 2_000 })
    .catch(() => '(no body)');
  return `${what} (screenshot e2e/screenshots/${name}.png). Page text: ${(body ?? '').replace(/\s+/g, ' ').slice(0, 400)}`;
}

/** Waits until some visible element shows this text; throws (failing the test) otherwise. */
export async function expectText(
  page: Page,
  text: string,
  options: { exact?: boolean; timeout?: number } = {},
) {
  try {
    await page
      .getByText(text, { exact: options.exact ?? false })
      .filter({ visible: true })
      .first()
      .waitFor({ state: 'visible', timeout: options.timeout ?? 15_000 });
  } catch {
    throw new Error(await describeFailure(page, `Expected to see "${text}" on ${page.url()}`));
  }
}

export async function expectTexts(page: Page, texts: string[]) {
  for (const text of texts) await expectText(page, text);
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
