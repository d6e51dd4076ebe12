// What answers the CLI's requests is not always the receiver or the simulator it was given: a proxy,
// a misconfigured host or a stranger's server. A redirect must not carry a freshly signed delivery
// (or the simulator's token) to another host, and no answer may take the CLI's memory.
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CAPTURE_FORMAT_VERSION, type CapturedDelivery } from '@ringhook/core/capture'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../../../test/runtimes/built.js'
import { inProcess } from './in-process.js'

const secret = 'whsec_cli_hostile'
const token = 'sim_token_hostile'

/** A server on 127.0.0.1 that answers with `answer`, having read the request's body. */
async function serve(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => answer(request, response))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** One captured gesture whose `data` is `data` (JSON text), as fileSink writes it. */
function captureLine(data = '{}'): string {
  const body = `{"event":"gesture","gesture_type":"tap","user_app_id":"u_hostile","app_id":"app_hostile","timestamp":"${new Date().toISOString()}","data":${data}}`
  const record: CapturedDelivery = {
    v: CAPTURE_FORMAT_VERSION,
    id: 'cap_hostile_1',
    receivedAt: new Date().toISOString(),
    event: 'gesture',
    request: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      encoding: 'utf8',
      bytes: Buffer.byteLength(body),
    },
    answer: { status: 200, headers: {}, body: '{}' },
    outcome: 'accepted',
  }
  return `${JSON.stringify(record)}\n`
}

let dir = ''
let captures = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-cli-hostile-'))
  captures = join(dir, 'deliveries.jsonl')
  await writeFile(captures, captureLine())
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('a redirect', () => {
  /** The other host: it must never be reached. */
  let elsewhere: Awaited<ReturnType<typeof serve>>
  const reached: string[] = []
  /** Answers /<status>/... with that status and a Location on the other host. */
  let redirector: Awaited<ReturnType<typeof serve>>

  beforeAll(async () => {
    elsewhere = await serve((request, response) => {
      reached.push(`${request.method} ${request.url}`)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}')
    })
    redirector = await serve((request, response) => {
      const status = Number(request.url?.split('/')[1])
      response.writeHead(status, { location: `${elsewhere.url}/stolen` }).end()
    })
  })
  afterAll(async () => {
    await redirector.close()
    await elsewhere.close()
  })

  it.each([307, 308, 302, 301, 303])('%i is the answer of send, replay and doctor', async (status) => {
    const url = `${redirector.url}/${status}/webhooks`
    const location = `${elsewhere.url}/stolen`

    const send = await inProcess(['send', 'gesture', '--url', url, '--secret', secret])
    expect(send.code).toBe(1)
    expect(send.stdout).toContain(`← ${status} in`)
    expect(send.stdout).toContain(`Redirected (${status}) to ${location}: not followed`)

    const replay = await inProcess(['replay', captures, '--url', url, '--secret', secret])
    expect(replay.code).toBe(1)
    expect(replay.stdout).toContain(`gesture cap_hostile_1: ${status} (was 200)`)
    expect(replay.stdout).toContain(`Redirected (${status}) to ${location}: not followed`)

    const doctor = await inProcess(['doctor', '--url', url, '--secret', secret])
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toContain(`Redirected to ${location} (${status})`)

    expect(reached).toEqual([])
  })

  it("does not carry the simulator's token elsewhere either (resend, the drive verbs)", async () => {
    const sim = `${redirector.url}/307`
    const resend = await inProcess(['resend', 'dlv_1', '--sim', sim, '--token', token])
    expect(resend.code).toBe(2)
    expect(resend.stderr).toContain(`Redirected (307) to ${elsewhere.url}/stolen`)
    const users = await inProcess(['users', '--sim', sim, '--token', token])
    expect(users.code).toBe(1)
    expect(users.stderr).toContain(`The simulator answered 307: Redirected (307) to ${elsewhere.url}/stolen`)
    const gesture = await inProcess(['gesture', 'ada', 'tap', '--sim', sim, '--token', token])
    expect(gesture.stderr).toContain('Redirected (307)')
    expect(reached).toEqual([])
  })
})

describe('a 1 GiB answer', () => {
  const GIB = 1024 * 1024 * 1024
  const CHUNK = Buffer.alloc(64 * 1024, 'x')
  /** Bytes written per answer: the server stops when the CLI hangs up. */
  const written: number[] = []
  let huge: Awaited<ReturnType<typeof serve>>

  beforeAll(async () => {
    assertBuilt('core', 'testing', 'capture', 'simulator', 'cli')
    // 1 GiB made as it is sent, never held: each chunk is written when the socket takes it.
    huge = await serve((_, response) => {
      const index = written.push(0) - 1
      response.writeHead(200, { 'content-type': 'text/plain' })
      const more = () => {
        while ((written[index] as number) < GIB && !response.destroyed) {
          written[index] = (written[index] as number) + CHUNK.length
          if (!response.write(CHUNK)) return
        }
        if (!response.destroyed) response.end()
      }
      response.on('drain', more)
      more()
    })
  })
  afterAll(() => huge?.close())

  /** Runs the built CLI in a child process; resolves with its output and its peak memory (RSS). */
  async function cli(args: string[]) {
    const bin = fileURLToPath(new URL('../bin/ringhook.mjs', import.meta.url))
    const peak = join(dir, 'peak-rss.mjs')
    await writeFile(
      peak,
      "process.on('exit', () => process.stderr.write('\\npeak_rss_kb=' + process.resourceUsage().maxRSS + '\\n'))\n",
    )
    const ran = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', peak, bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr }),
      )
    })
    const kb = Number(/peak_rss_kb=(\d+)/.exec(ran.stderr)?.[1])
    return { ...ran, peakMiB: Math.round(kb / 1024) }
  }

  it.each([
    ['send', ['send', 'gesture', '--secret', secret, '--url'], 'stdout'],
    ['replay', ['replay', '__captures__', '--secret', secret, '--url'], 'stdout'],
    ['doctor', ['doctor', '--secret', secret, '--url'], 'stdout'],
    ['resend', ['resend', 'dlv_1', '--token', token, '--sim'], 'stderr'],
    ['users', ['users', '--token', token, '--sim'], 'stderr'],
  ] as const)('%s reads 64 KiB of it, says so, and stays small', { timeout: 120_000 }, async (_, args, stream) => {
    const before = written.length
    const result = await cli([...args.map((arg) => (arg === '__captures__' ? captures : arg)), huge.url])
    // Node alone takes ~50 MiB, these commands ~100; reading the whole answer took ~2,100.
    expect(result.peakMiB).toBeGreaterThan(0)
    expect(result.peakMiB).toBeLessThan(200)
    expect(result[stream]).toContain('answer cut at 65536 bytes')
    // The CLI hung up: the server stopped far short of 1 GiB for each request it got.
    const sent = written.slice(before)
    expect(sent.length).toBeGreaterThan(0)
    for (const bytes of sent) expect(bytes).toBeLessThan(64 * 1024 * 1024)
  })
})

describe('a captured record nested 15,000 deep', () => {
  it('is replayed byte for byte, and --patch refuses it with a clear message', async () => {
    const bodies: string[] = []
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      bodies.push(Buffer.concat(chunks).toString())
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const target = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
    const nested = `${'['.repeat(15_000)}${']'.repeat(15_000)}`
    const deep = join(dir, 'deep.jsonl')
    await writeFile(deep, captureLine(nested))
    const patch = join(dir, 'patch.json')
    await writeFile(patch, '{"gesture_type":"double_tap"}')
    try {
      const sent = await inProcess(['replay', deep, '--url', `${target.url}/webhooks`, '--secret', secret])
      expect(sent.code).toBe(0)
      expect(sent.stdout).toContain('✔ gesture cap_hostile_1: 200 (was 200)')
      expect(bodies).toHaveLength(1)
      expect(bodies[0]).toContain(`"data":${nested}}`)
      const patched = await inProcess(['replay', deep, '--url', target.url, '--secret', secret, '--patch', patch])
      expect(patched.code).toBe(2)
      expect(patched.stderr).toContain('--patch: the body of cap_hostile_1 nests too deep to be written again')
      expect(bodies).toHaveLength(1)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
