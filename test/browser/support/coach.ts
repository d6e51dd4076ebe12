import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.js'
import type { World } from './world.js'

/** Ada with the control app "Pocket Coach" installed as `userAppId` (activated when asked). */
export async function installCoach(world: World, userAppId: string, activate = false): Promise<void> {
  const { control } = world
  await control('POST', '/users', { id: 'usr_ada', name: 'Ada' })
  await control('POST', '/keys', { id: 'key_dev', user_id: 'usr_ada' })
  await control('POST', '/apps', {
    key_id: 'key_dev',
    app_id: 'app_coach',
    name: 'Pocket Coach',
    type: 'control',
    webhook_url: world.webhookUrl,
    secret: world.secret,
  })
  await control('POST', '/apps/app_coach/installs', {
    user_id: 'usr_ada',
    user_app_id: userAppId,
    ...(activate ? { activate: true } : {}),
    wait: true,
  })
}

/** The simulator's page, live, in Chromium; its console errors and warnings land in `problems`. */
export async function openPage(world: World, problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.setDefaultTimeout(10_000)
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(world.pageUrl)
  await page.getByText('Live', { exact: true }).waitFor()
  return { browser, page }
}

/** The delivery log's rows that contain every one of `texts`. */
export const logRows = (page: Page, ...texts: string[]) =>
  texts.reduce((rows, text) => rows.filter({ hasText: text }), page.locator('.log tbody tr'))
