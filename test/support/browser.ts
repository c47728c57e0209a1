/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags this
 * machine needs (playwright gives it a fresh profile each launch): no sandbox as root, no GPU, and no background networking (the network is closed).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.KFBENCH_CHROMIUM ?? '/usr/bin/chromium';

export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
