import type { APIResponse } from 'playwright-core';
import type { RunningBrowser } from './browser.js';

/**
 * A JSON call from the signed-in browser session, with the anti-forgery header copied from its cookie as
 * the web app's axios does: for test set-up and clean-up that the screens themselves do not offer.
 */
export async function apiCall(
  browser: RunningBrowser,
  baseUrl: string,
  method: string,
  path: string,
  data?: unknown,
): Promise<APIResponse> {
  const cookies = await browser.context.cookies(baseUrl);
  const xsrf = cookies.find((cookie) => cookie.name.endsWith('XSRF-TOKEN'))?.value ?? '';
  return browser.page.request.fetch(`${baseUrl}${path}`, {
    method,
    ...(data === undefined ? {} : { data }),
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
  });
}
