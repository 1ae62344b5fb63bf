// Debian's Chromium driven by playwright-core (a devDependency: tests and bench only), with a
// fresh profile and every background service off, so that the only requests a page makes
// are its own. Never a downloaded browser.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

export const CHROMIUM = process.env.SPEKY_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** playwright's launch gives each browser a fresh temporary --user-data-dir. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set SPEKY_CHROMIUM)`);
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
