import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink } from '@ringhook/capture'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import type { LoadCapturesResult } from '@ringhook/simulator/control-api'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installCoach, openPage, logRows as rowsOf } from './support/coach.js'
import { ensurePageBuilt } from './support/page-build.js'
import { startWorld, type World } from './support/world.js'

// A delivery captured in production, loaded into the simulator with POST /_sim/captures: the page
// labels it as captured, with the record's id, and its Resend button sends it again.

const COACH = 'c0c0c0c0-0000-4000-8000-00000000ca97'

let world: World
let browser: Browser
let page: Page
let dir = ''
const problems: string[] = []

/** A capture file as a production receiver writes it: one gesture of the coach's install. */
async function captureFile(): Promise<string> {
  const path = join(dir, 'deliveries.jsonl')
  const capture = createCapture({ sink: fileSink({ path }), logger: silentLogger })
  const production = createReceiver({ secret: 'whsec_browser_production', logger: silentLogger, capture })
  production.on('gesture', () => vibe('tap'))
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'long_press',
    user_app_id: COACH,
    app_id: 'app_coach',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: 'whsec_browser_production', body })
  await production.handle({ method: 'POST', headers, rawBody: body })
  await capture.close()
  return path
}

beforeAll(async () => {
  ensurePageBuilt()
  dir = await mkdtemp(join(tmpdir(), 'ringhook-captures-page-'))
  world = await startWorld()
  await installCoach(world, COACH)
  ;({ browser, page } = await openPage(world, problems))
})

afterAll(async () => {
  await browser?.close()
  await world?.close()
  await rm(dir, { recursive: true, force: true })
})

const logRows = (...texts: string[]) => rowsOf(page, ...texts)

describe('captured deliveries on the page', () => {
  it('lists a loaded capture with its label and id, and resends it', async () => {
    const jsonl = await readFile(await captureFile(), 'utf8')
    const { loaded } = await world.control<LoadCapturesResult>('POST', '/captures', { jsonl, wait: true })
    if (loaded[0] === undefined) throw new Error('nothing was loaded')
    const { capture_id: captureId, delivery } = loaded[0]
    expect(delivery).toMatchObject({ capture_id: captureId, status: 'delivered' })

    // Signed again with the app's secret, answered by the example receiver with its vibe.
    const captured = logRows(`captured ${captureId}`)
    await logRows(`captured ${captureId}`, '"Got your long_press"').waitFor()
    await captured.getByRole('button', { name: 'Resend' }).click()
    // The resend is a delivery of its own, of the same captured record: a second labelled row, delivered.
    await captured.nth(1).waitFor()
    await world.sim.idle()
    const resent = world.sim.log.deliveries().find((d) => d.resend_of === delivery.id)
    expect(resent).toMatchObject({ capture_id: captureId, status: 'delivered' })
    await logRows(`captured ${captureId}`, 'ok').nth(1).waitFor()
    expect(world.webhooks.filter((request) => request === 'POST /webhooks')).toHaveLength(3) // install, load, resend
    // Nothing failed: the button for failed deliveries is not offered.
    expect(await page.getByRole('button', { name: 'Resend every failed delivery' }).count()).toBe(0)
    expect(problems).toEqual([])
  })
})
