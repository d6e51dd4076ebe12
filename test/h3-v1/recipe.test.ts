// The h3 1.x recipe (Nuxt 4 and Nitro 2 run on h3 1): `receiver.fetch(toWebRequest(event))`, over
// real HTTP. h3 1 keeps the raw body it read, so a body read earlier still verifies.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, signWebhook, silentLogger, vibe } from '@ringhook/core'
import { createApp, createRouter, defineEventHandler, readBody, readRawBody, toNodeListener, toWebRequest } from 'h3v1'
import { afterEach, describe, expect, it } from 'vitest'

const SECRET = 'whsec_h3v1_test'
let sent = 0

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

function gestureReceiver() {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled }
}

/** An h3 1 app with the recipe at /webhooks, after an optional middleware. */
async function serve(
  receiver: ReturnType<typeof gestureReceiver>['receiver'],
  before?: Parameters<typeof defineEventHandler>[0],
) {
  const app = createApp()
  if (before) app.use(defineEventHandler(before))
  const router = createRouter().post(
    '/webhooks',
    defineEventHandler((event) => receiver.fetch(toWebRequest(event))),
  )
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

describe('h3 1 recipe: receiver.fetch(toWebRequest(event))', () => {
  it('answers a signed gesture with its vibe', async () => {
    const { receiver, handled } = gestureReceiver()
    const response = await fetch(await serve(receiver), await signedGesture('wave 👋🏽 café'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE('Got wave 👋🏽 café'))
    expect(handled).toEqual(['wave 👋🏽 café'])
  })

  it.each([
    { name: 'readBody(event)', read: (event: Parameters<typeof readBody>[0]) => readBody(event) },
    { name: 'readRawBody(event)', read: (event: Parameters<typeof readRawBody>[0]) => readRawBody(event) },
  ])('verifies the exact bytes after a middleware read the body with $name', async ({ read }) => {
    const { receiver, handled } = gestureReceiver()
    const url = await serve(receiver, async (event) => {
      if (event.method === 'POST') await read(event)
    })
    const response = await fetch(url, await signedGesture())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE('Got double_tap'))
    expect(handled).toEqual(['double_tap'])
  })

  it('still rejects a tampered body with 401 after a middleware read it', async () => {
    const { receiver, handled } = gestureReceiver()
    const url = await serve(receiver, async (event) => {
      if (event.method === 'POST') await readBody(event)
    })
    const delivery = await signedGesture()
    const response = await fetch(url, { ...delivery, body: delivery.body.replace('double_tap', 'triple_tap') })
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
  })
})
