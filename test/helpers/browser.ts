// Headless Debian Chromium driven by playwright-core (no browser download: .ci/run installs the
// Debian package when it is missing).
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The machine has no network beyond loopback: keep Chromium from dialling out.
    args: [
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
