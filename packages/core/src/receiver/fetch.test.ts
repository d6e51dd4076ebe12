import { describe, expect, it } from 'vitest'
import type { Logger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { createReceiver } from './create-receiver.js'

const SECRET = 'whsec_fetch'
const NOW_MS = Date.parse('2026-11-22T10:00:00Z')
const BODY =
  '{"event":"gesture","app_id":"a","user_app_id":"u","timestamp":"2026-11-22T10:00:00Z","gesture_type":"tap","data":{}}'

function receiverLogging() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message?: string }> = []
  const at = (level: string) => (fields: Record<string, unknown>, message?: string) =>
    void lines.push({ level, fields, message })
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  }
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger })
  receiver.on('gesture', (event) => void handled.push(event.gesture_type))
  return { receiver, lines, handled }
}

async function delivery(withLength: boolean): Promise<Request> {
  const { headers } = await signWebhook({ secret: SECRET, body: BODY, timestamp: NOW_MS / 1000 })
  // Without a declared length the body is read as a stream, the path that met a locked stream as a 500.
  const declared: Record<string, string> = withLength
    ? { 'content-length': String(new TextEncoder().encode(BODY).length) }
    : {}
  return new Request('http://localhost/webhooks', { method: 'POST', headers: { ...headers, ...declared }, body: BODY })
}

describe('receiver.fetch on a body something else read', () => {
  it.each([
    { how: 'request.json() ran first', spoil: (request: Request) => request.json() },
    { how: 'request.text() ran first', spoil: (request: Request) => request.text() },
    { how: 'a reader holds the stream', spoil: (request: Request) => void request.body?.getReader() },
  ])('answers 500 body_already_parsed with the fix when $how', async ({ spoil }) => {
    for (const withLength of [true, false]) {
      const { receiver, lines, handled } = receiverLogging()
      const request = await delivery(withLength)
      await spoil(request)
      const response = await receiver.fetch(request)
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
      expect(handled).toEqual([])
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
      expect(lines[0]?.message).toContain('The webhook body was read before ringhook ran')
      expect(lines[0]?.message).toContain('request.clone()')
    }
  })

  it('reads a body of declared length by arrayBuffer(), never asking for request.body', async () => {
    // On Node servers (@hono/node-server) request.body builds a web stream that arrayBuffer() skips:
    // asking for it, even to see whether it is locked, cost 0.4x the req/s (bench/HISTORY.md).
    const { receiver, handled } = receiverLogging()
    const request = await delivery(true)
    const asked: PropertyKey[] = []
    const watched = new Proxy(request, {
      get(target, key) {
        asked.push(key)
        const value = Reflect.get(target, key, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    expect((await receiver.fetch(watched)).status).toBe(200)
    expect(handled).toEqual(['tap'])
    expect(asked).toContain('arrayBuffer')
    expect(asked).not.toContain('body')
  })

  it('still reads a body nothing touched, and one whose clone was read', async () => {
    for (const readClone of [false, true]) {
      // A receiver each: the two deliveries are one event, which the second would find a duplicate.
      const { receiver, handled } = receiverLogging()
      const request = await delivery(readClone)
      if (readClone) await request.clone().json()
      expect((await receiver.fetch(request)).status).toBe(200)
      expect(handled).toEqual(['tap'])
    }
  })
})

describe('receiver.handle on a Request or stream something else read', () => {
  it.each([
    { how: 'request.json() ran first', spoil: (request: Request) => request.json(), body: (r: Request) => r },
    { how: 'a reader holds its stream', spoil: (r: Request) => void r.body?.getReader(), body: (r: Request) => r },
    {
      how: 'its stream is handed over, locked',
      spoil: (r: Request) => void r.body?.getReader(),
      body: (r: Request) => r.body,
    },
  ])('answers 500 body_already_parsed with the fix when $how', async ({ spoil, body }) => {
    for (const withLength of [true, false]) {
      const { receiver, lines, handled } = receiverLogging()
      const request = await delivery(withLength)
      await spoil(request)
      const response = await receiver.handle({ method: 'POST', headers: request.headers, rawBody: body(request) })
      expect(response.status).toBe(500)
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'body_already_parsed' } })
      expect(handled).toEqual([])
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
      expect(lines[0]?.message).toContain('receiver.handle()')
      expect(lines[0]?.message).toContain('request.clone()')
    }
  })

  it('still reads a Request and a stream nothing touched', async () => {
    for (const stream of [false, true]) {
      const { receiver, handled } = receiverLogging()
      const request = await delivery(true)
      const rawBody = stream ? request.body : request
      expect((await receiver.handle({ method: 'POST', headers: request.headers, rawBody })).status).toBe(200)
      expect(handled).toEqual(['tap'])
    }
  })
})
