import { once } from 'node:events'
import { Readable } from 'node:stream'
import { createReceiver, silentLogger } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { gestureReceiver, signedGesture } from '../../../test/support/adapter-kit.js'
import { type NodeStyleRequest, ReadBody, StreamBody, toWebhookRequest } from '../src/index.js'

const headers = { 'content-type': 'application/json' }

/** A request stream, optionally already read to its end (as a body parser leaves it). */
async function nodeRequest(extra: Partial<NodeStyleRequest>, consumed = false) {
  const stream = Object.assign(Readable.from([Buffer.from('{"from":"stream"}')]), { method: 'POST', headers }, extra)
  if (consumed) for await (const _ of stream);
  return stream as unknown as NodeStyleRequest
}

describe('toWebhookRequest', () => {
  it('streams the body when nothing read it', async () => {
    const body = toWebhookRequest(await nodeRequest({})).rawBody
    expect(body).toBeInstanceOf(StreamBody)
    const read = await (body as StreamBody).readBody(1024, 1000)
    expect(read.ok && Buffer.from(read.bytes).toString()).toBe('{"from":"stream"}')
  })

  it('stops reading past the limit, and pauses the stream rather than destroying it', async () => {
    const stream = new Readable({ read() {} })
    stream.push('{"more than four bytes":true}')
    expect(await new StreamBody(stream).readBody(4, 1000)).toEqual({ ok: false, code: 'payload_too_large' })
    expect(stream.isPaused()).toBe(true)
    expect(stream.destroyed).toBe(false)
  })

  it('answers body_incomplete when the stream breaks mid-body', async () => {
    const stream = new Readable({ read() {} })
    stream.push('{"event":')
    const read = new StreamBody(stream).readBody(1024, 1000)
    stream.destroy(new Error('aborted'))
    expect(await read).toEqual({ ok: false, code: 'body_incomplete' })
  })

  it('answers body_incomplete at once for a stream torn down before it was read', async () => {
    // A middleware that waited before ringhook, while the client hung up: 'close' came and went.
    const stream = new Readable({ read() {} })
    stream.push('{"event":')
    stream.destroy()
    await once(stream, 'close')
    expect(await new StreamBody(stream).readBody(1024, 60_000)).toEqual({ ok: false, code: 'body_incomplete' })
  })

  it('leaves its listeners on the stream once the body is read, and ignores what comes after', async () => {
    // Removing them cost more than the read itself (bench/RESULTS.md): this pins that they stay.
    const stream = new Readable({ read() {} })
    const read = new StreamBody(stream).readBody(1024, 1000)
    stream.push('{"event":"x"}')
    stream.push(null)
    const result = await read
    expect(result.ok && Buffer.from(result.bytes).toString()).toBe('{"event":"x"}')
    expect([stream.listenerCount('data'), stream.listenerCount('end'), stream.listenerCount('close')]).toEqual([
      1, 1, 1,
    ])
    // A late 'error' or 'close' meets the body's listeners, which do nothing now (and nothing throws).
    stream.emit('error', new Error('after the end'))
    stream.emit('close')
    expect(await read).toBe(result)
  })

  it('prefers raw bytes a verify hook kept in req.rawBody', async () => {
    const kept = Buffer.from('{"kept":true}')
    expect(toWebhookRequest(await nodeRequest({ rawBody: kept, body: { kept: true } }, true)).rawBody).toBe(kept)
  })

  it('uses a Buffer express.raw() left in req.body', async () => {
    const kept = Buffer.from('{"raw":true}')
    expect(toWebhookRequest(await nodeRequest({ body: kept }, true)).rawBody).toBe(kept)
  })

  it('reports a body a parser consumed without keeping the bytes', async () => {
    const request = toWebhookRequest(await nodeRequest({ body: { parsed: true } }, true))
    expect(request.rawBody).toBeNull()
    expect(request.bodyAlreadyParsed).toContain('express.json({ verify')
  })

  it('still streams when a parser only set an empty req.body placeholder', async () => {
    expect(toWebhookRequest(await nodeRequest({ body: {} })).rawBody).toBeInstanceOf(StreamBody)
  })

  it('is answered 500 body_already_parsed by the receiver, with the fix logged', async () => {
    const logged: Array<string | undefined> = []
    const receiver = createReceiver({
      secret: 'whsec_x',
      logger: { ...silentLogger, error: (_fields, message) => void logged.push(message) },
    })
    const response = await receiver.handle(toWebhookRequest(await nodeRequest({ body: {} }, true)))
    expect(response.status).toBe(500)
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(logged).toEqual([expect.stringContaining('Mount ringhook before the parser')])
  })
})

describe('StreamBody.read and ReadBody', () => {
  it('reads through a callback, and the receiver verifies and handles the bytes read ahead', async () => {
    const { receiver, handled } = gestureReceiver()
    const delivery = await signedGesture()
    // Split across chunks, as a socket delivers it: the signature holds only if they are joined exactly.
    const bytes = Buffer.from(delivery.body)
    const stream = Readable.from([bytes.subarray(0, 7), bytes.subarray(7)])
    const read = await new Promise<ReadBody>((resolve) =>
      new StreamBody(stream).read(1024, 1000, (result) => resolve(new ReadBody(result))),
    )
    // Synchronous: the receiver's pipeline takes it as a plain value, not a promise.
    expect(read.readBody()).toBe(read.result)
    const response = await receiver.handle({ method: 'POST', headers: delivery.headers, rawBody: read })
    expect(response.status).toBe(200)
    expect(handled).toEqual(['double_tap'])
  })

  it('tells the limit and a broken stream through the callback as the promise would', async () => {
    const outcome = (stream: Readable, limit: number) =>
      new Promise((resolve) => new StreamBody(stream).read(limit, 1000, resolve))
    expect(await outcome(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), 15)).toEqual({
      ok: false,
      code: 'payload_too_large',
    })
    const broken = new Readable({ read() {} })
    const told = outcome(broken, 1024)
    broken.push(Buffer.from('{"half'))
    broken.destroy(new Error('reset'))
    expect(await told).toEqual({ ok: false, code: 'body_incomplete' })
  })

  it("answers a body read ahead that ran out of time with the core's 408", async () => {
    const receiver = createReceiver({ secret: 'whsec_read_ahead', logger: silentLogger })
    const response = await receiver.handle({
      method: 'POST',
      headers,
      rawBody: new ReadBody({ ok: false, code: 'body_timeout' }),
    })
    expect(response.status).toBe(408)
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'body_timeout' } })
  })
})
