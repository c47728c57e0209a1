/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags this
 * machine needs (playwright gives it a fresh profile each launch): no sandbox as root, no GPU, and no background networking (the network is closed).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.KFBENCH_CHROMIUM ?? '/usr/bin/chromium';

export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    // no limit that a loaded machine can exceed (playwright's default is 30 s); the suite's hang
    // ceiling ends a real hang
    timeout: 0,
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A new page whose waits (navigation, load states, selectors) have no time limit: playwright's
 * 30 s default failed a page load under a load average of 17. scripts/hang-guard.mjs ends a real hang.
 */
export async function openPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(0);
  page.setDefaultNavigationTimeout(0);
  return page;
}
