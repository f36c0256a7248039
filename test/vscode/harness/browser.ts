// Headless Debian chromium driven by playwright-core (no browser download: the machine has no internet).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export const chromiumPath = process.env['SPECWEAVE_CHROMIUM'] ?? '/usr/bin/chromium';

// Without the networking flags chromium keeps dialling Google's hosts, which this machine refuses many at a time.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} not found: run \`bash scripts/setup-vscode.sh\` (it installs Debian chromium)`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout: 60_000 });
}
