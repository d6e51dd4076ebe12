// The HTTP section's load generator, against real node:http servers on 127.0.0.1.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ringHeaders } from '../fixtures.js'
import { runLoad } from './load.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

interface Seen {
  bodies: string[]
  signatures: Set<string>
  connections: number
}

/** A server that keeps what it was sent and answers with `answer`. */
async function serve(
  answer: (count: number, res: import('node:http').ServerResponse) => void,
): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = { bodies: [], signatures: new Set(), connections: 0 }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen.bodies.push(Buffer.concat(chunks).toString())
      seen.signatures.add(String(req.headers['x-service-signature']))
      answer(seen.bodies.length, res)
    })
  })
  server.on('connection', () => {
    seen.connections += 1
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen }
}

const load = (port: number, connections = 4, presign = 200) =>
  runLoad({ port, sign: ringHeaders, connections, durationS: 0.4, presign })

// A run lasts 0.4 s of wall time by design, and how much a loaded machine gets done in it is anyone's
// guess: each test asserts how what was counted matches what the server saw (exact up to the one
// request a connection may have in flight at the deadline), and asks for no more answers than the few
// its rule needs.
describe('runLoad', () => {
  it('sends distinct signed deliveries on keep-alive connections and counts every 2xx answer', async () => {
    const { port, seen } = await serve((_count, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    )
    // 4 pre-signed, one a connection: every connection's second delivery is signed live.
    const result = await load(port, 4, 4)
    const counted = Math.round(result.rps * 0.4)
    expect(result.errors).toBe(0)
    expect(seen.connections).toBe(4)
    // Answers after the deadline are not counted (at most one a connection); every counted one was a request the server saw.
    expect(counted).toBeGreaterThan(4)
    expect(counted).toBeLessThanOrEqual(seen.bodies.length)
    expect(counted).toBeGreaterThanOrEqual(seen.bodies.length - 4)
    expect(new Set(seen.bodies).size).toBe(seen.bodies.length)
    expect(seen.signatures.size).toBe(seen.bodies.length)
    expect(JSON.parse(seen.bodies[0] as string)).toMatchObject({ event: 'notification.responded' })
    expect(result.p50Ms).toBeGreaterThan(0)
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms)
    // Past the 4 pre-signed, each request sent was signed live (the server may not have read the last ones).
    expect(result.signedLive).toBeGreaterThanOrEqual(seen.bodies.length - 4)
    expect(result.signedLive).toBeGreaterThan(0)
    expect(result.loadCpuShare).toBeGreaterThan(0)
  })

  it('reads chunked answers', async () => {
    const { port, seen } = await serve((_count, res) => {
      res.writeHead(200)
      res.write('{"ok"')
      res.end(':true}')
    })
    const result = await load(port, 2)
    const counted = Math.round(result.rps * 0.4)
    expect(result.errors).toBe(0)
    // A chunked answer not read to its end would hold its connection: more than one answer each.
    expect(counted).toBeGreaterThan(2)
    expect(counted).toBeGreaterThanOrEqual(seen.bodies.length - 2)
  })

  it('counts a non-2xx answer as an error, and replaces a connection the server closes', async () => {
    // Every 4th answer closes its connection; every odd one is a 401.
    let refused = 0
    const { port, seen } = await serve((count, res) => {
      if (count % 4 === 0) res.writeHead(200, { connection: 'close' }).end('{}')
      else if (count % 2 === 0) res.writeHead(200).end('{}')
      else {
        refused += 1
        res.writeHead(401).end()
      }
    })
    const result = await load(port, 2)
    const closed = Math.floor(seen.bodies.length / 4)
    // Each close before the deadline opened a new connection (one a connection may come after it).
    expect(closed).toBeGreaterThan(2)
    expect(seen.connections).toBeGreaterThanOrEqual(2 + closed - 2)
    expect(result.errors).toBeLessThanOrEqual(refused)
    expect(result.errors).toBeGreaterThanOrEqual(refused - 2)
    expect(Math.round(result.rps * 0.4)).toBeGreaterThanOrEqual(seen.bodies.length - refused - 2)
  })

  it('counts a connection dropped before its answer as an error and goes on', async () => {
    let dropped = 0
    const { port, seen } = await serve((count, res) => {
      if (count % 3 === 0) {
        dropped += 1
        res.socket?.destroy()
      } else res.writeHead(200).end('{}')
    })
    const result = await load(port, 2)
    expect(dropped).toBeGreaterThan(2)
    expect(result.errors).toBeLessThanOrEqual(dropped)
    expect(result.errors).toBeGreaterThanOrEqual(dropped - 2)
    // It went on after its drops: the deliveries answered are counted.
    expect(Math.round(result.rps * 0.4)).toBeGreaterThanOrEqual(seen.bodies.length - dropped - 2)
    expect(result.rps).toBeGreaterThan(0)
  })
})
