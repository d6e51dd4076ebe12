import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchChromium } from './support/chromium.js'
import { ensurePageBuilt } from './support/page-build.js'
import { startWorld, type World } from './support/world.js'

// The attacks a web page could make on a developer's simulator, in a real Chromium: a page on
// another origin (localhost, another port) against the simulator and its page on 127.0.0.1, and a
// page whose name was rebound to 127.0.0.1 (Chromium's resolver maps rebind.test there).

let world: World
let browser: Browser
let evil: Page

beforeAll(async () => {
  ensurePageBuilt()
  world = await startWorld()
  await world.control('POST', '/keys', { id: 'key_dev' })
  await world.control('POST', '/apps', { key_id: 'key_dev', app_id: 'app_dev', secret: world.secret })
  browser = await launchChromium(['--host-resolver-rules=MAP rebind.test 127.0.0.1'])
})

afterAll(async () => {
  await browser?.close()
  await world?.close()
})

const counts = () => {
  const { apps, users } = world.sim.state()
  return { apps: apps.length, users: users.length, webhooks: world.webhooks.length }
}

describe('a page on another origin', () => {
  beforeEach(async () => {
    evil = await browser.newPage()
    await evil.goto(world.attackerUrl)
  })
  afterEach(() => evil.close())

  it('cannot read the state or the event stream', async () => {
    const seen = await evil.evaluate(async (sim) => {
      const blocked = (error: Error) => `blocked: ${error.name}`
      const read = await fetch(`${sim}/_sim/state`).then((r) => r.text(), blocked)
      const opaque = await fetch(`${sim}/_sim/state`, { mode: 'no-cors' }).then(
        async (r) => `${r.type} ${await r.text()}`,
      )
      const stream = await new Promise<string>((resolve) => {
        const source = new EventSource(`${sim}/_sim/events`)
        source.onmessage = () => resolve('message')
        source.onerror = () => {
          resolve(source.readyState === EventSource.CLOSED ? 'closed' : 'retrying')
          source.close()
        }
      })
      return { read, opaque, stream }
    }, world.sim.url)
    expect(seen).toEqual({ read: 'blocked: TypeError', opaque: 'opaque ', stream: 'closed' })
  })

  it('cannot create an app, post a form or send JSON to the control API', async () => {
    const before = counts()
    const outcome = await evil.evaluate(
      async ({ sim, target }) => {
        const blocked = (error: Error) => `blocked: ${error.name}`
        const body = JSON.stringify({ key_id: 'key_dev', name: 'Evil', webhook_url: target })
        // A simple request: sent without a preflight, its answer unreadable.
        const simple = await fetch(`${sim}/_sim/apps`, { method: 'POST', mode: 'no-cors', body }).then((r) => r.type)
        // JSON needs a preflight, which the simulator refuses.
        const json = await fetch(`${sim}/_sim/apps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then((r) => String(r.status), blocked)
        // The classic cross-site form post, its text/plain body shaped as JSON.
        const sink = document.createElement('iframe')
        sink.name = 'sink'
        document.body.append(sink)
        const form = Object.assign(document.createElement('form'), {
          method: 'POST',
          action: `${sim}/_sim/users`,
          enctype: 'text/plain',
          target: 'sink',
        })
        const field = Object.assign(document.createElement('input'), { name: '{"name":"Mallory","x":"', value: '"}' })
        form.append(field)
        document.body.append(form)
        await new Promise((resolve) => {
          sink.onload = resolve
          form.submit()
        })
        return { simple, json }
      },
      { sim: world.sim.url, target: world.webhookUrl },
    )
    expect(outcome).toEqual({ simple: 'opaque', json: 'blocked: TypeError' })
    await world.control('GET', '/idle')
    expect(counts()).toEqual(before)
  })

  it('cannot frame the simulator page to have its buttons clicked', async () => {
    await evil.evaluate(async (page) => {
      const frame = Object.assign(document.createElement('iframe'), { src: page })
      await new Promise((resolve) => {
        frame.onload = resolve
        document.body.append(frame)
      })
    }, world.pageUrl)
    const [framed, ...others] = evil.mainFrame().childFrames()
    expect(framed).toBeDefined()
    expect(others).toEqual([])
    expect(await framed?.getByRole('heading', { name: 'ringhook simulator' }).count()).toBe(0)
  })
})

describe('a page whose name was rebound to 127.0.0.1', () => {
  it('gets neither the page nor the state', async () => {
    const rebound = await browser.newPage()
    try {
      const url = `http://rebind.test:${world.sim.port}/`
      const response = await rebound.goto(url)
      expect(response?.status()).toBe(403)
      expect(await response?.text()).not.toContain('ringhook-sim-token')
      // Its script runs on rebind.test, so this is a same-origin read as the browser sees it.
      const read = await rebound.evaluate(async () => {
        const answer = await fetch('/_sim/state')
        return { status: answer.status, text: await answer.text() }
      })
      expect(read.status).toBe(403)
      expect(JSON.parse(read.text).error.code).toBe('host_not_allowed')
      expect(read.text).not.toContain(world.secret)
    } finally {
      await rebound.close()
    }
  })
})
