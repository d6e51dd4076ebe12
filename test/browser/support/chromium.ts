import { existsSync } from 'node:fs'
import sparticuz from '@sparticuz/chromium'
import { type Browser, chromium } from 'playwright-core'

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * The browser the page's tests drive. `RINGHOOK_CHROMIUM` names one (Debian's `/usr/bin/chromium`
 * renders the README screenshot with its emoji font); otherwise the Chromium that ships inside the
 * `@sparticuz/chromium` package, unpacked on first use, so `pnpm install && pnpm test` needs no
 * system browser and nothing is downloaded from outside the npm registry.
 */
export async function chromiumPath(): Promise<string> {
  const chosen = process.env.RINGHOOK_CHROMIUM
  if (chosen === undefined) return sparticuz.executablePath()
  if (!existsSync(chosen)) {
    throw new Error(
      `No Chromium at RINGHOOK_CHROMIUM=${chosen}. Unset it to use the one bundled with @sparticuz/chromium, or install one (\`apt-get install chromium\`).`,
    )
  }
  return chosen
}

/** Launches headless Chromium, with extra command-line switches if any; these tests are never skipped. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: [...ARGS, ...extraArgs] })
}
