import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readAnswer } from './read-answer.js'

let server: Server
let base = ''
/** Resolves when the endless answer's connection closes: the reader hung up instead of reading on. */
let endlessClosed: Promise<void>
let endlessSent = 0

beforeAll(async () => {
  let closed: () => void = () => {}
  endlessClosed = new Promise((resolve) => {
    closed = resolve
  })
  server = createServer((request, response) => {
    if (request.url === '/short') return void response.end('{"ok":true}')
    if (request.url === '/accents') return void response.end('ééé') // 6 bytes, 2 each
    // An answer that never ends: 16 KiB chunks, as fast as the reader takes them.
    response.on('close', closed)
    const chunk = Buffer.alloc(16 * 1024, 'x')
    const more = () => {
      while (!response.destroyed && response.write(chunk)) endlessSent += chunk.length
    }
    response.on('drain', more)
    more()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('readAnswer', () => {
  it('reads a body within the cap whole', async () => {
    expect(await readAnswer(await fetch(`${base}/short`), 1024)).toEqual({ text: '{"ok":true}', bytes: 11, cut: false })
  })

  it('keeps the first bytes of a longer body, says it cut, and hangs up on the rest', async () => {
    const answer = await readAnswer(await fetch(`${base}/endless`), 100_000)
    expect(answer).toEqual({ text: 'x'.repeat(100_000), bytes: 100_000, cut: true })
    await endlessClosed
    // The server stopped sending soon after: socket buffers, not the endless body.
    expect(endlessSent).toBeLessThan(64 * 1024 * 1024)
  })

  it('cuts on a byte count, a character split by the cut shown as U+FFFD', async () => {
    expect(await readAnswer(await fetch(`${base}/accents`), 3)).toEqual({ text: 'é\uFFFD', bytes: 3, cut: true })
  })
})
