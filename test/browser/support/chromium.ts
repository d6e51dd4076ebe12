import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium: the suite drives the system browser and never downloads one. */
export const CHROMIUM = process.env.RINGHOOK_CHROMIUM ?? '/usr/bin/chromium'

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Launches headless Chromium, failing loudly when it is not installed: these tests are never skipped. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    const required =
      process.env.RINGHOOK_REQUIRE_SERVICES === '1' ? ' CI requires it (RINGHOOK_REQUIRE_SERVICES=1).' : ''
    throw new Error(
      `No Chromium at ${CHROMIUM}. The simulator page's browser tests need a real one and never skip: install it with \`apt-get install chromium\` (or point RINGHOOK_CHROMIUM at one).${required}`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS })
}
