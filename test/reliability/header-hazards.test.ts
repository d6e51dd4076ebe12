// Header names in any case, and signature or timestamp headers sent twice, written byte for byte
// on a raw TCP connection (HTTP clients normalise both) to every adapter in the conformance suite.
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { afterEach, describe, expect, it } from 'vitest'
import { adapters, type Mounted } from '../conformance/adapters.js'
import { gesture, NOW_MS, SECRET, signed } from '../support/events.js'
import { observe } from './observations.js'
import { portOf, rawConnection, rawRequest } from './support.js'

async function rawPost(url: string, headerLines: string[], body: string) {
  const connection = await rawConnection(portOf(url))
  await connection.write(rawRequest(headerLines, body))
  const status = await connection.status()
  connection.socket.destroy()
  return status
}

describe.each(adapters)('headers over the wire: $name', (adapter) => {
  let mounted: Mounted | undefined
  let handled = 0
  const mount = async () => {
    const receiver: Receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger })
    receiver.onAny(() => {
      handled++
    })
    mounted = await adapter.mount(receiver)
    return mounted.url
  }
  afterEach(async () => {
    await mounted?.close()
    mounted = undefined
    handled = 0
  })

  it('matches header names case-insensitively', async ({ task }) => {
    const url = await mount()
    const statuses: number[] = []
    for (const names of [
      ['X-SERVICE-SIGNATURE', 'X-SERVICE-TIMESTAMP', 'CONTENT-TYPE'],
      ['x-Service-Signature', 'X-service-TIMESTAMP', 'Content-type'],
    ] as const) {
      const { body, headers } = await signed(gesture())
      const lines = [
        `${names[0]}: ${headers['x-service-signature']}`,
        `${names[1]}: ${headers['x-service-timestamp']}`,
        `${names[2]}: application/json`,
      ]
      statuses.push((await rawPost(url, lines, body)) ?? 0)
    }
    expect(statuses).toEqual([200, 200])
    expect(handled).toBe(2)
    observe(
      {
        table: 'inputs',
        row: 'Header names in upper and mixed case (raw HTTP/1.1)',
        column: adapter.name,
        value: '200, handled',
      },
      task,
    )
  })

  it('answers a duplicated signature or timestamp header 401, the same way every time', async ({ task }) => {
    const url = await mount()
    const { body, headers } = await signed(gesture())
    const signature = headers['x-service-signature'] as string
    const timestamp = headers['x-service-timestamp'] as string
    const other = `sha256=${'0'.repeat(64)}`
    const variants = [
      [signature, signature],
      [signature, other],
      [other, signature],
    ].map(([a, b]) => [
      `X-Service-Signature: ${a}`,
      `X-Service-Signature: ${b}`,
      `X-Service-Timestamp: ${timestamp}`,
      'Content-Type: application/json',
    ])
    variants.push([
      `X-Service-Signature: ${signature}`,
      `X-Service-Timestamp: ${timestamp}`,
      `X-Service-Timestamp: ${timestamp}`,
      'Content-Type: application/json',
    ])
    const statuses: number[] = []
    // Twice over, to show the answer does not depend on order or on what came before.
    for (let round = 0; round < 2; round++) {
      for (const lines of variants) statuses.push((await rawPost(url, lines, body)) ?? 0)
    }
    expect(statuses).toEqual(Array(statuses.length).fill(401))
    expect(handled).toBe(0)
    // The untouched delivery is still accepted afterwards.
    expect(
      await rawPost(
        url,
        [`X-Service-Signature: ${signature}`, `X-Service-Timestamp: ${timestamp}`, 'Content-Type: application/json'],
        body,
      ),
    ).toBe(200)
    observe(
      {
        table: 'inputs',
        row: 'Signature header sent twice (same value, valid+invalid, invalid+valid) or timestamp sent twice',
        column: adapter.name,
        value: '401 every time (values joined with ", " are malformed); handler not run',
      },
      task,
    )
  })
})

describe('duplicated headers in a Fetch Headers object', () => {
  it('are joined, malformed, and answered 401', async () => {
    const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger })
    let handled = 0
    receiver.onAny(() => {
      handled++
    })
    const { body, headers: signedHeaders } = await signed(gesture())
    const headers = new Headers(signedHeaders)
    headers.append('x-service-signature', signedHeaders['x-service-signature'] as string)
    const response = await receiver.fetch(new Request('http://local/webhooks', { method: 'POST', headers, body }))
    expect(response.status).toBe(401)
    expect(handled).toBe(0)
  })
})
