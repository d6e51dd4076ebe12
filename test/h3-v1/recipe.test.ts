// The h3 1.x recipe (./recipe.ts) over real HTTP, with the body read before it and not.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Logger, type Receiver, vibe } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { createApp, createRouter, defineEventHandler, readBody, readRawBody, toNodeListener } from 'h3v1'
import { afterEach, describe, expect, it } from 'vitest'
import { h3v1Recipe } from './recipe.js'

const SECRET = 'whsec_h3v1_test'
let sent = 0

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

function recordingLogger() {
  const lines: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (fields, message) => void lines.push({ fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

function gestureReceiver(logger: Logger = recordingLogger().logger) {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled }
}

/** An h3 1 app with the recipe at /webhooks, after an optional middleware. */
async function serve(receiver: Receiver, before?: Parameters<typeof defineEventHandler>[0]) {
  const app = createApp()
  if (before) app.use(defineEventHandler(before))
  const router = createRouter().post('/webhooks', h3v1Recipe(receiver))
  app.use(router)
  const server = createServer(toNodeListener(app))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  close = () => {
    server.closeAllConnections()
    server.close()
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
}

async function signedGesture(gestureType = 'double_tap') {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: gestureType,
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}

const VIBE = (message: string) => ({ success: true, vibe: { sequence: [{ type: 'tap' }], message } })

describe('h3 1 recipe: the Node request and response under the event', () => {
  it('answers a signed gesture with its vibe', async () => {
    const { receiver, handled } = gestureReceiver()
    const response = await fetch(await serve(receiver), await signedGesture('wave 👋🏽 café'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE('Got wave 👋🏽 café'))
    expect(handled).toEqual(['wave 👋🏽 café'])
  })

  it('rejects a tampered body with 401', async () => {
    const { receiver, handled } = gestureReceiver()
    const delivery = await signedGesture()
    const response = await fetch(await serve(receiver), {
      ...delivery,
      body: delivery.body.replace('double_tap', 'triple_tap'),
    })
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
  })

  it.each([
    { name: 'readBody(event)', read: (event: Parameters<typeof readBody>[0]) => readBody(event) },
    { name: 'readRawBody(event)', read: (event: Parameters<typeof readRawBody>[0]) => readRawBody(event) },
  ])('answers body_already_parsed and logs why when a middleware read the body with $name', async ({ read }) => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver(logger)
    const url = await serve(receiver, async (event) => {
      if (event.method === 'POST') await read(event)
    })
    const response = await fetch(url, await signedGesture())
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]?.message).toContain('Mount ringhook before the parser')
  })
})
