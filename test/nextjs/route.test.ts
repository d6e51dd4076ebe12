// The Next.js App Router recipe (examples/nextjs/app/webhooks/route.ts) run through Next's own
// NextRequest, as Next's server hands it to a route handler. No Next server is booted here.
import { createReceiver, type Logger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { NextRequest } from 'next/server'
import { beforeAll, describe, expect, it } from 'vitest'
import * as route from '../../examples/nextjs/app/webhooks/route'

const SECRET = 'whsec_next_test'
let sent = 0

beforeAll(() => {
  // The route creates its receiver on the first request, from the environment.
  process.env.RING_WEBHOOK_SECRET = SECRET
})

async function signedRequest(gestureType = 'double_tap', options: { contentLength?: boolean } = {}) {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: gestureType,
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  // Next's server passes the request's Content-Length on, as every HTTP request with a body has one.
  if (options.contentLength !== false) headers['content-length'] = String(Buffer.byteLength(body))
  return new NextRequest('http://localhost:3000/webhooks', { method: 'POST', headers, body })
}

function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => void lines.push({ level: 'error', fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

describe('Next.js route handler recipe', () => {
  it('is a dynamic route on the Node.js runtime', () => {
    expect(route.runtime).toBe('nodejs')
    expect(route.dynamic).toBe('force-dynamic')
  })

  it('answers a signed gesture with its vibe, non-ASCII text included', async () => {
    const response = await route.POST(await signedRequest('wave 👋🏽 café'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual({
      success: true,
      vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message: 'Got your wave 👋🏽 café' },
    })
  })

  it('answers a 200-character gesture type with a vibe whose message fits the 80-character rule', async () => {
    const long = 'g'.repeat(200)
    const response = await route.POST(await signedRequest(long))
    expect(response.status).toBe(200)
    const { vibe } = (await response.json()) as { vibe: { message: string } }
    expect(Array.from(vibe.message)).toHaveLength(80)
    expect(vibe.message).toBe(`Got your ${'g'.repeat(70)}…`)
  })

  it('rejects a tampered body with 401', async () => {
    const request = await signedRequest()
    const tampered = new NextRequest(request.url, {
      method: 'POST',
      headers: request.headers,
      body: (await request.text()).replace('double_tap', 'triple_tap'),
    })
    const response = await route.POST(tampered)
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } })
  })
})

// The raw-body trap of route handlers: a Request body can be read once. The core sees that the
// route read it first and says so, with the fix, whether or not Content-Length was sent.
describe('a route that reads the body before ringhook', () => {
  const misusedRoute = (logger: Logger) => {
    const receiver = createReceiver({ secret: SECRET, logger })
    let handled = 0
    receiver.on('gesture', () => void handled++)
    const post = async (request: NextRequest) => {
      await request.json() // the mistake
      return receiver.fetch(request)
    }
    return { post, handled: () => handled }
  }

  it.each([
    ['with Content-Length', {}],
    ['without Content-Length', { contentLength: false }],
  ])('never runs handlers: 500 body_already_parsed, and the log names the fix (%s)', async (_name, options) => {
    const { logger, lines } = recordingLogger()
    const { post, handled } = misusedRoute(logger)
    const response = await post(await signedRequest('double_tap', options))
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled()).toBe(0)
    expect(lines).toHaveLength(1)
    expect(lines[0]?.fields).toMatchObject({ code: 'body_already_parsed' })
    expect(lines[0]?.message).toContain('request.json()')
  })
})
