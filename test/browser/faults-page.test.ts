import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installCoach, openPage, logRows as rowsOf } from './support/coach.js'
import { ensurePageBuilt } from './support/page-build.js'
import { startWorld, type World } from './support/world.js'

// A fault injected from the page, against the example receiver, and the failed delivery it causes
// resent from the page once the app has its secret again.

const COACH = 'c0c0c0c0-0000-4000-8000-00000000c0de'

let world: World
let browser: Browser
let page: Page
const problems: string[] = []

beforeAll(async () => {
  ensurePageBuilt()
  world = await startWorld()
  await installCoach(world, COACH, true)
  ;({ browser, page } = await openPage(world, problems))
})

afterAll(async () => {
  await browser?.close()
  await world?.close()
})

const logRows = (...texts: string[]) => rowsOf(page, ...texts)

describe('faults and resend on the page', () => {
  it('queues a rotation for the next delivery; the log labels it and explains the 401s that follow', async () => {
    const faults = page.getByRole('region', { name: 'Faults' })
    await faults.getByRole('button', { name: 'rotation' }).click()
    await faults.getByText('Queued: rotation').waitFor()
    expect(world.sim.faults.get().next).toEqual(['rotation'])

    await page.getByRole('article', { name: 'Pocket Coach app' }).getByRole('button', { name: 'double tap' }).click()
    await logRows('gesture', 'fault: rotation').first().waitFor()
    // The example receiver knows only the old secret: every retry is refused, and the log says why.
    const last = logRows('gesture', 'Failed after 4 attempts')
    await last.waitFor()
    expect(await last.textContent()).toContain("after this app's secret was regenerated")
    await faults.getByText('Nothing queued.').waitFor()
  })

  it('resends the failed delivery once the app has its secret back', async () => {
    await world.control('PATCH', '/apps/app_coach', { secret: world.secret })
    await logRows('gesture', 'Failed after 4 attempts').getByRole('button', { name: 'Resend' }).click()
    await logRows('gesture', '"Got your double_tap"').first().waitFor()
    await world.sim.idle()
    const resent = world.sim.log.deliveries().find((delivery) => delivery.resend_of !== null)
    expect(resent).toMatchObject({ event: 'gesture', status: 'delivered' })
    // The report's problems, not just its verdict: a failure then says which delivery and why.
    expect(world.sim.report().problems).toEqual([])
    expect(problems).toEqual([])
  })
})
