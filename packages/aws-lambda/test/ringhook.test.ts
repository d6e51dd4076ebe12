import { createReceiver, type Logger, type ReceiverOptions, vibe } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import type { ALBHandler, APIGatewayProxyHandler, APIGatewayProxyHandlerV2, LambdaFunctionURLHandler } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { gate } from '../../../test/support/gate.js'
import { type LambdaHttpEvent, type LambdaHttpResult, ringhook } from '../src/index.js'
import { albEvent, functionUrlEvent, httpApiEvent, restApiEvent, type Sent } from './events.js'

const SECRET = 'whsec_lambda_test'
let sent = 0

function gestureReceiver(options: Partial<ReceiverOptions> = {}) {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger: silent, ...options })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled, handler: ringhook(receiver) }
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent }

/** A gesture payload as text; a distinct delivery each call. */
function gestureText(gestureType = 'double_tap', event = 'gesture'): string {
  return JSON.stringify({
    event,
    gesture_type: gestureType,
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
}

async function signed(body: string | Uint8Array, options: { secret?: string } = {}): Promise<Sent> {
  const { headers } = await signWebhook({ secret: options.secret ?? SECRET, body })
  return { body, headers }
}

/** The service's headers spelled in mixed case, as an HTTP/1.1 client may send them. */
const mixedCase = (headers: Record<string, string>) => ({
  'Content-Type': headers['content-type'] as string,
  'X-Service-Signature': headers['x-service-signature'] as string,
  'X-Service-Timestamp': headers['x-service-timestamp'] as string,
})

const bodyOf = (result: LambdaHttpResult): unknown => JSON.parse(result.body)
const VIBE = (message: string) => ({ success: true, vibe: { sequence: [{ type: 'tap' }], message } })

const triggers: Array<{ name: string; event: (sent: Sent) => LambdaHttpEvent }> = [
  { name: 'API Gateway REST API', event: (s) => restApiEvent({ ...s, headers: mixedCase(s.headers) }) },
  { name: 'API Gateway HTTP API (payload 2.0)', event: httpApiEvent },
  { name: 'Function URL', event: functionUrlEvent },
  { name: 'ALB', event: (s) => albEvent(s) },
  { name: 'ALB with multi-value headers', event: (s) => albEvent(s, { multiValue: true }) },
]

describe.each(triggers)('$name', ({ name, event }) => {
  const multiValue = name.includes('multi-value')

  it('answers a signed gesture with its vibe, in the result shape the trigger reads', async () => {
    const { handler, handled } = gestureReceiver()
    const result = await handler(event(await signed(gestureText())))
    expect(result.statusCode).toBe(200)
    expect(result.isBase64Encoded).toBe(false)
    expect(bodyOf(result)).toEqual(VIBE('Got double_tap'))
    if (multiValue) {
      expect(result.headers).toBeUndefined()
      expect(result.multiValueHeaders?.['content-type']).toEqual(['application/json; charset=utf-8'])
    } else {
      expect(result.multiValueHeaders).toBeUndefined()
      expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8')
    }
    expect(handled).toEqual(['double_tap'])
  })

  it('verifies a base64 body byte for byte, non-ASCII text included', async () => {
    const { handler, handled } = gestureReceiver()
    const result = await handler(event({ ...(await signed(gestureText('wave 👋🏽 café ñ 日本'))), base64: true }))
    expect(result.statusCode).toBe(200)
    expect(bodyOf(result)).toEqual(VIBE('Got wave 👋🏽 café ñ 日本'))
    expect(handled).toEqual(['wave 👋🏽 café ñ 日本'])
  })

  it('decodes a base64 body to bytes, not text: bytes that are not UTF-8 still pass the signature', async () => {
    // Signed over bytes no text decoding could reproduce; the signature passing shows the bytes
    // reached the core unchanged, and the core then refuses them as JSON (400, not 401).
    const bytes = Uint8Array.from([...Buffer.from('{"event":"gesture","x":"'), 0xff, 0xfe, 0x80, ...Buffer.from('"}')])
    const { handler } = gestureReceiver()
    const result = await handler(event({ ...(await signed(bytes)), base64: true }))
    expect(result.statusCode).toBe(400)
    expect(bodyOf(result)).toMatchObject({ error: { code: 'invalid_json' } })
  })

  it('rejects a base64 body altered after signing with 401', async () => {
    const { handler, handled } = gestureReceiver()
    const delivery = await signed(gestureText())
    const altered = { ...delivery, body: (delivery.body as string).replace('double_tap', 'double_tip'), base64: true }
    const result = await handler(event(altered))
    expect(result.statusCode).toBe(401)
    expect(bodyOf(result)).toMatchObject({ error: { code: 'unauthorized' } })
    expect(handled).toEqual([])
  })

  it('rejects the wrong secret with 401 and answers GET with 405', async () => {
    const { handler, handled } = gestureReceiver()
    const wrong = await handler(event(await signed(gestureText(), { secret: 'whsec_other' })))
    expect(wrong.statusCode).toBe(401)
    const get = await handler(event({ ...(await signed(gestureText())), method: 'GET' }))
    expect(get.statusCode).toBe(405)
    expect(bodyOf(get)).toMatchObject({ error: { code: 'method_not_allowed' } })
    expect(get.headers?.allow ?? get.multiValueHeaders?.allow?.[0]).toBe('POST')
    expect(handled).toEqual([])
  })
})

describe('headers', () => {
  it('matches header names case-insensitively in every map', async () => {
    const { handler } = gestureReceiver()
    const delivery = await signed(gestureText())
    const upper = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toUpperCase(), v]))
    expect((await handler(restApiEvent({ ...delivery, headers: upper }))).statusCode).toBe(200)
    const again = await signed(gestureText())
    const multi = Object.fromEntries(Object.entries(again.headers).map(([k, v]) => [k.toUpperCase(), [v]]))
    expect((await handler(albEvent(again, { multiValue: multi }))).statusCode).toBe(200)
  })

  it('reads every value of a REST API header from multiValueHeaders: a second signature is never dropped', async () => {
    const { handler, handled } = gestureReceiver()
    const delivery = await signed(gestureText())
    const signature = delivery.headers['x-service-signature'] as string
    // `headers` keeps only the last value, which is the valid one; the repeat must still fail.
    const multi = {
      'content-type': ['application/json'],
      'x-service-timestamp': [delivery.headers['x-service-timestamp'] as string],
      'x-service-signature': [`sha256=${'0'.repeat(64)}`, signature],
    }
    const event = restApiEvent(delivery, multi)
    expect(event.headers['x-service-signature']).toBe(signature)
    expect((await handler(event)).statusCode).toBe(401)
    expect(handled).toEqual([])
  })

  it('keeps both values when a REST API header arrives under two spellings', async () => {
    const { handler } = gestureReceiver()
    const delivery = await signed(gestureText())
    // The valid spelling comes last: keeping only one of them would let it through.
    const multi = {
      'content-type': ['application/json'],
      'x-service-timestamp': [delivery.headers['x-service-timestamp'] as string],
      'X-Service-Signature': [`sha256=${'0'.repeat(64)}`],
      'x-service-signature': [delivery.headers['x-service-signature'] as string],
    }
    expect((await handler(restApiEvent(delivery, multi))).statusCode).toBe(401)
  })

  it('refuses an ALB multi-value delivery with a repeated signature header', async () => {
    const { handler } = gestureReceiver()
    const delivery = await signed(gestureText())
    const multi = {
      'content-type': ['application/json'],
      'x-service-timestamp': [delivery.headers['x-service-timestamp'] as string],
      'x-service-signature': [delivery.headers['x-service-signature'] as string, `sha256=${'0'.repeat(64)}`],
    }
    const result = await handler(albEvent(delivery, { multiValue: multi }))
    expect(result.statusCode).toBe(401)
    expect(result.multiValueHeaders?.['content-type']).toEqual(['application/json; charset=utf-8'])
  })
})

describe('a body parsed before ringhook', () => {
  it('answers 500 body_already_parsed and logs the fix when middleware replaced event.body with an object', async () => {
    const lines: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
    const logger: Logger = { ...silent, error: (fields, message) => void lines.push({ fields, message }) }
    const { handler, handled } = gestureReceiver({ logger })
    const delivery = await signed(gestureText())
    const event = httpApiEvent({ ...delivery, base64: true })
    // What @middy/http-json-body-parser does: decode, parse, and put the object back in place of the text.
    const parsed: unknown = JSON.parse(Buffer.from(event.body as string, 'base64').toString())
    const result = await handler({ ...event, body: parsed } as unknown as LambdaHttpEvent)
    expect(result.statusCode).toBe(500)
    expect(bodyOf(result)).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]?.fields).toEqual({ code: 'body_already_parsed' })
    expect(lines[0]?.message).toContain('@middy/http-json-body-parser')
    expect(lines[0]?.message).toContain('Export ringhook(receiver) as the handler itself')
    expect(JSON.stringify(lines)).not.toContain(delivery.headers['x-service-signature'])
  })
})

describe('events that are not HTTP requests', () => {
  it('throws a TypeError naming the triggers it reads', async () => {
    const { handler } = gestureReceiver()
    const sqs = { Records: [{ messageId: '1', body: '{}' }] } as unknown as LambdaHttpEvent
    await expect(handler(sqs)).rejects.toThrow(/API Gateway \(REST or HTTP API\), a Function URL or an Application/)
    await expect(handler(null as unknown as LambdaHttpEvent)).rejects.toThrow(/not an HTTP request/)
  })
})

describe('the deadline in a runtime that freezes after the response', () => {
  const slow = (options: Partial<ReceiverOptions>) => {
    const { receiver } = gestureReceiver({ deadlineMs: 100, ...options })
    let finished = false
    // Held until the test has the answer: the invocation ends at the deadline with the handler unfinished.
    const held = gate()
    const done = gate()
    receiver.on('app.activated', async () => {
      await held.promise
      finished = true
      done.open()
    })
    return { handler: ringhook(receiver), finished: () => finished, held, done }
  }

  it("with onDeadline: 'retry', returns 503 at the deadline while the handler runs, and the retry gets the result", async () => {
    const { handler, finished, held, done } = slow({ onDeadline: 'retry' })
    const text = gestureText(undefined, 'app.activated')
    const first = await handler(httpApiEvent(await signed(text)))
    // The invocation is over here: on Lambda the environment may freeze now, with the handler unfinished.
    expect(first.statusCode).toBe(503)
    expect(bodyOf(first)).toMatchObject({ error: { code: 'deadline_exceeded' } })
    expect(finished()).toBe(false)
    held.open()
    await done.promise
    // The store takes the result in the promise jobs that follow the handler's.
    await new Promise((resolve) => setImmediate(resolve))
    const retry = await handler(httpApiEvent(await signed(text)))
    expect(retry.statusCode).toBe(200)
  })

  it("with the default 'acknowledge', returns 200 at the deadline while the handler is still running", async () => {
    const { handler, finished, held } = slow({})
    const result = await handler(httpApiEvent(await signed(gestureText(undefined, 'app.activated'))))
    // Lambda would freeze here: the service has its 2xx, and the unfinished work may never resume.
    expect(result.statusCode).toBe(200)
    expect(finished()).toBe(false)
    held.open()
  })
})

describe('types', () => {
  it("fits each trigger's handler type", () => {
    const { receiver } = gestureReceiver()
    const rest: APIGatewayProxyHandler = ringhook(receiver)
    const http: APIGatewayProxyHandlerV2 = ringhook(receiver)
    const url: LambdaFunctionURLHandler = ringhook(receiver)
    const alb: ALBHandler = ringhook(receiver)
    expect([rest, http, url, alb].every((h) => typeof h === 'function')).toBe(true)
  })
})
