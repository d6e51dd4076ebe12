// Every command that calls a server gives up on one that accepts the connection and never answers,
// after the one timeout they share (--timeout, or RINGHOOK_TIMEOUT_MS, 30 s by default), and says so.
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink } from '@ringhook/capture'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_TIMEOUT_MS, timeoutFrom } from '../src/cli/timeout.js'
import { inProcess } from './in-process.js'

/** Accepts every connection, reads what comes, and never writes a byte. */
let silent: Server
const sockets = new Set<Socket>()
let port = 0
let dir = ''
let file = ''

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.resume()
  })
  silent.listen(0, '127.0.0.1')
  await once(silent, 'listening')
  port = (silent.address() as AddressInfo).port
  dir = await mkdtemp(join(tmpdir(), 'ringhook-cli-timeouts-'))
  file = join(dir, 'deliveries.jsonl')
  const capture = createCapture({ sink: fileSink({ path: file }), logger: silentLogger })
  const source = createReceiver({ secret: 'whsec_timeouts', logger: silentLogger, capture })
  source.on('gesture', () => vibe('tap'))
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'u_timeouts',
    app_id: 'app_timeouts',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: 'whsec_timeouts', body })
  await source.handle({ method: 'POST', headers, rawBody: body })
  await capture.close()
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise<void>((resolve) => silent.close(() => resolve()))
  await rm(dir, { recursive: true, force: true })
})

const url = () => `http://127.0.0.1:${port}`
const TIMEOUT = 300
const named = `no answer within ${TIMEOUT} ms (the timeout: --timeout or RINGHOOK_TIMEOUT_MS)`

const commands: [string, () => string[], number][] = [
  ['users --sim', () => ['users', '--sim', url()], 3],
  ['gesture --sim', () => ['gesture', 'ada', 'tap', '--sim', url(), '--token', 't'], 3],
  ['resend --sim', () => ['resend', 'dlv_1', '--sim', url(), '--token', 't'], 3],
  ['send', () => ['send', 'gesture', '--url', `${url()}/webhooks`, '--secret', 'whsec_x'], 3],
  ['replay', () => ['replay', file, '--url', `${url()}/webhooks`, '--secret', 'whsec_x'], 3],
  ['replay --redis', () => ['replay', '--redis', `redis://127.0.0.1:${port}/0`, '--url', url(), '--secret', 'x'], 3],
  [
    'replay --postgres',
    () => ['replay', '--postgres', `postgres://u@127.0.0.1:${port}/db`, '--url', url(), '--secret', 'x'],
    3,
  ],
  ['doctor', () => ['doctor', '--url', `${url()}/webhooks`, '--secret', 'whsec_x'], 1],
  ['jobs list', () => ['jobs', 'list', '--redis', `redis://127.0.0.1:${port}`], 1],
]

describe('a server that accepts and never answers', () => {
  it.each(commands)('%s gives up after --timeout, naming it', async (_, args, exit) => {
    const started = performance.now()
    const result = await inProcess([...args(), '--timeout', String(TIMEOUT)])
    const ms = performance.now() - started
    expect(result.code).toBe(exit)
    expect(`${result.stdout}\n${result.stderr}`).toContain(named)
    // Doctor sends a handful of probes, each given the timeout; the others give up once (or twice).
    expect(ms).toBeLessThan(TIMEOUT * 20)
  })

  it.each(commands)('%s takes the timeout from RINGHOOK_TIMEOUT_MS too', async (_, args, exit) => {
    process.env.RINGHOOK_TIMEOUT_MS = String(TIMEOUT)
    try {
      const result = await inProcess(args())
      expect(result.code).toBe(exit)
      expect(`${result.stdout}\n${result.stderr}`).toContain(named)
    } finally {
      delete process.env.RINGHOOK_TIMEOUT_MS
    }
  })
})

describe('the timeout', () => {
  it('is 30 s by default, and refuses what a timer cannot hold', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000)
    expect(timeoutFrom(undefined)).toBe(30_000)
    for (const bad of ['0', '-1', '1.5', 'soon', String(2 ** 31)])
      expect(() => timeoutFrom(bad)).toThrow('--timeout takes')
  })
})
