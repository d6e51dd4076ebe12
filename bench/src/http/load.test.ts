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

describe('runLoad', () => {
  it('sends distinct signed deliveries on keep-alive connections and counts every 2xx answer', async () => {
    const { port, seen } = await serve((_count, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    )
    // 20 pre-signed: past them (the bound below asks for over 100 answers) every delivery is signed
    // live, however slowly a loaded machine runs the 0.4 s (with 200, a slow run signed none live).
    const result = await load(port, 4, 20)
    expect(result.errors).toBe(0)
    expect(seen.connections).toBe(4)
    // Answers after the deadline are not counted; every counted one was a request the server saw.
    expect(result.rps * 0.4).toBeGreaterThan(100)
    expect(result.rps * 0.4).toBeLessThanOrEqual(seen.bodies.length)
    expect(new Set(seen.bodies).size).toBe(seen.bodies.length)
    expect(seen.signatures.size).toBe(seen.bodies.length)
    expect(JSON.parse(seen.bodies[0] as string)).toMatchObject({ event: 'notification.responded' })
    expect(result.p50Ms).toBeGreaterThan(0)
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms)
    expect(result.signedLive).toBeGreaterThan(0) // 20 pre-signed, over 100 sent
    expect(result.loadCpuShare).toBeGreaterThan(0)
  })

  it('reads chunked answers', async () => {
    const { port } = await serve((_count, res) => {
      res.writeHead(200)
      res.write('{"ok"')
      res.end(':true}')
    })
    const result = await load(port, 2)
    expect(result.errors).toBe(0)
    expect(result.rps).toBeGreaterThan(100)
  })

  it('counts a non-2xx answer as an error, and replaces a connection the server closes', async () => {
    const { port, seen } = await serve((count, res) => {
      if (count % 10 === 0) res.writeHead(200, { connection: 'close' }).end('{}')
      else if (count % 2 === 0) res.writeHead(200).end('{}')
      else res.writeHead(401).end()
    })
    const result = await load(port, 2)
    expect(seen.connections).toBeGreaterThan(10)
    expect(result.errors).toBeGreaterThan(result.rps * 0.4 * 0.8)
    expect(result.rps).toBeGreaterThan(100)
  })

  it('counts a connection dropped before its answer as an error and goes on', async () => {
    const { port } = await serve((count, res) => {
      if (count % 5 === 0) res.socket?.destroy()
      else res.writeHead(200).end('{}')
    })
    const result = await load(port, 2)
    expect(result.errors).toBeGreaterThan(5)
    expect(result.rps).toBeGreaterThan(100)
  })
})
