import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * An axe-core pass over the page as it is now (WCAG 2.x A and AA rules): the serious and critical
 * violations, each as 'rule-id: help (selectors)'. Empty when there are none. It waits for the document to
 * have loaded: a page whose address changed (a redirect) may still be replacing its document, and axe's script
 * would run in the one being left.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState('load');
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${page.url()} ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')})`,
    );
}
