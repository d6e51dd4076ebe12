import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './support/chromium.js'
import { lowContrast } from './support/contrast.js'
import { ensurePageBuilt } from './support/page-build.js'
import { startWorld, type World } from './support/world.js'

// The simulator page in a real headless Chromium, against a real simulator delivering to the
// example receiver. The tests run in order, on one page, like a developer's session.

// The README's picture is rewritten only on request (`pnpm screenshot`); other runs leave the tree clean.
const SCREENSHOT =
  process.env.RINGHOOK_SCREENSHOT === '1'
    ? fileURLToPath(new URL('../../docs/simulator.png', import.meta.url))
    : join(tmpdir(), `ringhook-simulator-${process.pid}.png`)
const COACH = 'c0c0c0c0-0000-4000-8000-000000000001'
const POLL = 'c0c0c0c0-0000-4000-8000-000000000002'

let world: World
let browser: Browser
let page: Page
let token: string
const problems: string[] = []

beforeAll(async () => {
  ensurePageBuilt()
  world = await startWorld()
  const { control } = world
  await control('POST', '/users', { id: 'usr_ada', name: 'Ada' })
  token = (await control<{ token: string }>('POST', '/keys', { id: 'key_dev', user_id: 'usr_ada' })).token
  const app = (app_id: string, name: string, type: string) =>
    control('POST', '/apps', {
      key_id: 'key_dev',
      app_id,
      name,
      type,
      webhook_url: world.webhookUrl,
      secret: world.secret,
    })
  await app('app_coach', 'Pocket Coach', 'control')
  await app('app_poll', 'Lunch Poll', 'preferred_notification')
  for (const [appId, userAppId] of [
    ['app_coach', COACH],
    ['app_poll', POLL],
  ] as const) {
    await control('POST', `/apps/${appId}/installs`, {
      user_id: 'usr_ada',
      user_app_id: userAppId,
      activate: true,
      wait: true,
    })
  }

  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.setDefaultTimeout(10_000)
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  // A clock the test can move, for the 5-second Ring UI notification; it runs on by itself otherwise.
  await page.clock.install()
  await page.goto(world.pageUrl)
  await page.getByText('Live', { exact: true }).waitFor()
})

afterAll(async () => {
  await browser?.close()
  await world?.close()
})

const coach = () => page.getByRole('article', { name: 'Pocket Coach app' })
const lunch = () => page.getByRole('article', { name: 'Lunch Poll app' })
const logRow = (...texts: string[]) =>
  texts.reduce((rows, text) => rows.filter({ hasText: text }), page.locator('.log tbody tr'))

describe('the simulator page', () => {
  it('shows the user, their installed apps and their state from the simulator', async () => {
    await page.getByRole('heading', { name: 'Ada' }).waitFor()
    expect(await coach().locator('.tag').allTextContents()).toEqual(['control', 'active'])
    expect(await lunch().locator('.tag').allTextContents()).toEqual(['preferred notification', 'active'])
    // The installs' webhooks, delivered to the example receiver while the page was loading.
    await logRow('app.activated', 'Pocket Coach').first().waitFor()
  })

  it('sends a gesture to the example receiver and shows the vibe it answered with', async () => {
    const before = world.webhooks.length
    await coach().getByRole('button', { name: 'double tap' }).click()

    const vibe = page.getByRole('list', { name: 'Vibes at the ring, newest first' }).getByRole('listitem').first()
    await vibe.getByText('“Got your double_tap”').waitFor()
    const steps = await vibe.getByRole('list', { name: 'Sequence' }).getByRole('listitem').allTextContents()
    expect(steps).toEqual(['300 mstap', '300 mspulse'])
    expect(await vibe.textContent()).toContain('gesture reply')
    expect(await vibe.textContent()).toContain('felt')

    const row = logRow('gesture', 'Pocket Coach · Ada')
    await row.filter({ hasText: '"Got your double_tap"' }).waitFor()
    expect(await row.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      'gesture',
      'Pocket Coach · Ada',
      '1 of 4',
      '200',
      expect.stringMatching(/ms$/),
      'ok',
      '—',
      expect.stringContaining('"sequence"'),
    ])
    expect(world.webhooks.slice(before)).toEqual(['POST /webhooks'])
  })

  it('shows a notification with its buttons; answering it is what the app polls', async () => {
    const trigger = await world.service(token, '/vibes/trigger', {
      app_id: 'app_poll',
      user_app_id: POLL,
      sequence: [{ type: 'pulse' }, { type: 'tap', delay_ms: 600 }],
      message: 'Lunch at noon?',
      show_ring_ui_notif: true,
      response_config: { type: 'yes_no_dismiss' },
      response_mode: 'poll',
    })
    expect(trigger.status).toBe(200)
    const { event_id: eventId } = (await trigger.json()) as { event_id: string }
    const poll = async () => (await world.service(token, `/events/${eventId}/response`)).json()
    expect(await poll()).toMatchObject({ status: 'pending', response: null })

    // The Ring UI notification: app name and message, for 5 seconds.
    const toast = page.getByRole('status').filter({ hasText: 'Lunch at noon?' })
    await toast.waitFor()
    expect(await toast.textContent()).toContain('Lunch Poll')

    const notification = lunch().getByRole('listitem').filter({ hasText: 'Lunch at noon?' })
    const buttons = notification.getByRole('button')
    await buttons.first().waitFor()
    expect(await buttons.allTextContents()).toEqual(['Yes', 'No', 'Dismiss'])
    await notification.getByRole('button', { name: 'Yes' }).click()
    await notification.getByText('Answered yes').waitFor()
    expect(await poll()).toMatchObject({ event_id: eventId, status: 'responded', response: 'yes' })
    await logRow('notification.responded', 'Lunch Poll · Ada', '200').waitFor()

    await page.clock.fastForward(5_000)
    await toast.waitFor({ state: 'detached' })
  })

  it('sends no webhook for a gesture while gesture forwarding is off, switched by keyboard', async () => {
    const forwarding = coach().getByRole('switch', { name: 'Gesture forwarding' })
    expect(await forwarding.getAttribute('aria-checked')).toBe('true')
    await forwarding.focus()
    await page.keyboard.press('Space')
    await coach().locator('[role="switch"][aria-checked="false"]', { hasText: 'Gesture forwarding' }).waitFor()
    expect(await forwarding.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid')

    const before = world.webhooks.length
    await coach().getByRole('button', { name: 'swipe up' }).click()
    await logRow('not forwarded').waitFor()
    expect(await logRow('not forwarded').textContent()).toContain('swipe_up: gesture forwarding is off')
    await world.control('GET', '/idle')
    expect(world.webhooks.length).toBe(before)
    const { entries } = await world.control<{ entries: { gesture_type: string; forwarded: boolean }[] }>(
      'GET',
      '/log?type=gesture',
    )
    expect(entries.at(-1)).toMatchObject({ gesture_type: 'swipe_up', forwarded: false })
  })

  it('moves an app through its lifecycle, offering only the valid transitions', async () => {
    const button = (name: string) => coach().getByRole('button', { name, exact: true })
    expect(await button('Activate').isDisabled()).toBe(true)
    await button('Passive').click()
    await coach()
      .locator('.tag', { hasText: /^passive$/ })
      .waitFor()
    expect(await button('Activate').isEnabled()).toBe(true)
    expect(await button('Passive').isDisabled()).toBe(true)
    expect(await coach().getByRole('button', { name: 'double tap' }).isDisabled()).toBe(true)
    await logRow('control.passive').waitFor()
    await button('Activate').click()
    await coach()
      .locator('.tag', { hasText: /^active$/ })
      .waitFor()
    // Notification apps have no passive state and receive no gestures.
    expect(await lunch().getByRole('button', { name: 'Passive' }).count()).toBe(0)
    expect(await lunch().getByRole('group', { name: 'Gestures' }).count()).toBe(0)
  })

  it('takes the README screenshot', async () => {
    await coach().getByRole('switch', { name: 'Gesture forwarding' }).click()
    await coach().locator('[role="switch"][aria-checked="true"]', { hasText: 'Gesture forwarding' }).waitFor()
    await world.service(token, '/vibes/trigger', {
      app_id: 'app_poll',
      user_app_id: POLL,
      sequence: [{ type: 'tap' }, { type: 'tap', delay_ms: 150 }],
      message: 'How was the workout?',
      show_ring_ui_notif: true,
      response_config: {
        type: 'emoji',
        options: [
          { emoji: '💪', label: 'Strong' },
          { emoji: '😮‍💨', label: 'Tired' },
        ],
      },
      response_mode: 'webhook',
    })
    await lunch().getByRole('button', { name: 'Strong' }).waitFor()
    const toast = page.getByRole('status').filter({ hasText: 'How was the workout?' })
    await toast.waitFor()

    // Time stands still while the gesture's reply arrives, then moves step by step through its sequence.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000)
    await coach().getByRole('button', { name: 'long press' }).click()
    await page.getByText('“Got your long_press”').waitFor()
    const ring = (name: string) => page.getByRole('img', { name, exact: true })
    await ring('Ring').waitFor()
    await page.clock.runFor(350) // the 300 ms pause, then the tap
    await ring('Ring: tap').waitFor()
    await page.clock.runFor(500) // the tap ends, 300 ms pause, the pulse
    await ring('Ring: pulse').waitFor()
    // A reply without a Ring UI notification leaves the one on screen in place.
    expect(await toast.textContent()).toContain('Lunch Poll')

    await page.screenshot({ path: SCREENSHOT, fullPage: true })
    const png = await readFile(SCREENSHOT)
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(png.readUInt32BE(16)).toBe(1280)
    await page.clock.resume()
  })

  it('has readable contrast everywhere (WCAG AA, 4.5:1 for text)', async () => {
    expect(await lowContrast(page)).toEqual([])
  })

  it('logged no error: no script error, no refused asset, no content security violation', () => {
    expect(problems).toEqual([])
  })
})
