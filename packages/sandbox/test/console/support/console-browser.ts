import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

// The browser of the console's tests: Debian's Chromium driven by playwright-core, a page that
// records every script error and Content-Security-Policy violation, and the check each page of
// a flow gets: no serious or critical axe-core violation, and a screenshot for a reviewer.

/** The Chromium the tests drive: `CHROMIUM_PATH`, or Debian's package. */
export const CHROMIUM_EXECUTABLE = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Where the screenshots go (git-ignored), with `axe-results.json`, every violation found by page. */
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Headless Chromium, without its sandbox (CI runs as root) or background traffic. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page and what it reported: script errors, and console messages about the CSP. */
export interface ConsolePage {
  readonly page: Page;
  readonly problems: string[];
}

/** A new tab of its own (its own sessionStorage) at 1280 x 900, recording its problems. */
export async function newConsolePage(browser: Browser): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  // Every native dialog of the console is a confirmation of a destructive action.
  page.on('dialog', (dialog) => void dialog.accept());
  return { page, problems };
}

const found: Record<string, Array<{ id: string; impact: string | null | undefined; help: string; nodes: number }>> = {};

/**
 * The check of one page of a flow, once it shows what the flow expects: saves a screenshot as
 * `name.png`, runs axe-core (WCAG 2.x A and AA, and best practices) and expects no serious or
 * critical violation; every violation, of any impact, is kept in `axe-results.json`.
 */
export async function checkPage({ page, problems }: ConsolePage, name: string): Promise<void> {
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.length,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
  found[name] = violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes }));
  writeFileSync(`${SCREENSHOTS}axe-results.json`, `${JSON.stringify(found, null, 2)}\n`);
  expect(
    violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
    `axe on ${name}`,
  ).toEqual([]);
  expect(problems, `script errors or CSP violations on ${name}`).toEqual([]);
}
