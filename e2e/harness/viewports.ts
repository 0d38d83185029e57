import type { Page } from 'playwright-core';
import { screenshot } from './browser.js';

/** A laptop and a phone, the two sizes every changed screen is checked at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Full-page screenshots of the current screen at 1280×800 and 390×844, saved as
 * e2e/screenshots/<name>-desktop.png and <name>-phone.png; the viewport is 1280×800 afterwards.
 */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  await page.setViewportSize(VIEWPORTS.phone);
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(VIEWPORTS.desktop);
  await screenshot(page, `${name}-desktop`);
}
