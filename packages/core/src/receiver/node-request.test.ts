import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.js'
import { createReceiver } from './create-receiver.js'
import { fromNodeRequest, type NodeStyleRequest } from './node-request.js'

const headers = { 'content-type': 'application/json' }

/** A request stream, optionally already read to its end (as a body parser leaves it). */
async function nodeRequest(extra: Partial<NodeStyleRequest>, consumed = false) {
  const stream = Object.assign(Readable.from([Buffer.from('{"from":"stream"}')]), { method: 'POST', headers }, extra)
  if (consumed) for await (const _ of stream);
  return stream as unknown as NodeStyleRequest
}

describe('fromNodeRequest', () => {
  it('streams the body when nothing read it', async () => {
    const request = await nodeRequest({})
    expect(fromNodeRequest(request).rawBody).toBe(request)
  })

  it('prefers raw bytes a verify hook kept in req.rawBody', async () => {
    const kept = Buffer.from('{"kept":true}')
    expect(fromNodeRequest(await nodeRequest({ rawBody: kept, body: { kept: true } }, true)).rawBody).toBe(kept)
  })

  it('uses a Buffer express.raw() left in req.body', async () => {
    const kept = Buffer.from('{"raw":true}')
    expect(fromNodeRequest(await nodeRequest({ body: kept }, true)).rawBody).toBe(kept)
  })

  it('reports a body a parser consumed without keeping the bytes', async () => {
    const request = fromNodeRequest(await nodeRequest({ body: { parsed: true } }, true))
    expect(request.rawBody).toBeNull()
    expect(request.bodyAlreadyParsed).toContain('express.json({ verify')
  })

  it('still streams when a parser only set an empty req.body placeholder', async () => {
    const request = await nodeRequest({ body: {} })
    expect(fromNodeRequest(request).rawBody).toBe(request)
  })

  it('is answered 500 body_already_parsed by the receiver, with the fix logged', async () => {
    const logged: Array<string | undefined> = []
    const receiver = createReceiver({
      secret: 'whsec_x',
      logger: { ...silentLogger, error: (_fields, message) => void logged.push(message) },
    })
    const response = await receiver.handle(fromNodeRequest(await nodeRequest({ body: {} }, true)))
    expect(response.status).toBe(500)
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(logged).toEqual([expect.stringContaining('Mount ringhook before the parser')])
  })
})
