import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { verifyWebhook } from '@ringhook/core/signature'
import { ringhook as nodeRinghook } from '@ringhook/node'
import { createSimulator } from '@ringhook/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startReceiver, type TestReceiver } from '../../simulator/test/support.js'
import { run } from '../src/cli/run.js'
import { inProcess } from './in-process.js'

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))
const root = fileURLToPath(new URL('../../..', import.meta.url))
const secret = 'whsec_cli_test'

/** Spawns the real bin through tsx, as a user would run it. */
function ringhook(args: string[]): {
  child: ChildProcess
  done: Promise<{ code: number | null; stdout: string; stderr: string }>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  )
  return { child, done }
}

let server: Server
let url: string
beforeAll(async () => {
  const receiver = createReceiver({ secret, logger: silentLogger })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
  server = createServer(nodeRinghook(receiver, { path: '/webhooks' }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the ringhook bin', () => {
  it('prints help with exit 0, and exit 2 for an unknown command', async () => {
    const [help, unknown, signHelp] = await Promise.all([
      ringhook(['--help']).done,
      ringhook(['frobnicate']).done,
      ringhook(['sign', '--help']).done,
    ])
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('simulate') })
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command "frobnicate"') })
    expect(signHelp).toMatchObject({ code: 0, stdout: expect.stringContaining('--timestamp') })
  })

  it('sign prints headers and a curl line that a receiver accepts', async () => {
    const { code, stdout } = await ringhook([
      'sign',
      'gesture',
      '--secret',
      secret,
      '--url',
      url,
      '--gesture-type',
      'swipe_up',
    ]).done
    expect(code).toBe(0)
    const signature = /^X-SERVICE-Signature: (sha256=[0-9a-f]{64})$/m.exec(stdout)?.[1]
    const timestamp = /^X-SERVICE-Timestamp: (\d+)$/m.exec(stdout)?.[1]
    const body = /--data-raw '(.*)'$/m.exec(stdout)?.[1] as string
    expect(stdout).toContain(`curl -X POST ${url}`)
    expect(JSON.parse(body)).toMatchObject({ event: 'gesture', gesture_type: 'swipe_up' })
    expect(await verifyWebhook({ rawBody: body, signature, timestamp, secret })).toMatchObject({ ok: true })
  })

  it('send reports status, latency and a valid vibe reply with exit 0, a rejection with exit 1', async () => {
    const [accepted, rejected] = await Promise.all([
      ringhook(['send', 'gesture', '--url', url, '--secret', secret, '--gesture-type', 'double_tap']).done,
      ringhook(['send', 'app.installed', '--url', url, '--secret', 'whsec_wrong_secret']).done,
    ])
    expect(accepted.code).toBe(0)
    expect(accepted.stdout).toMatch(/← 200 in [\d.]+ ms/)
    expect(accepted.stdout).toContain('✔ The vibe reply follows the trigger rules: tap, pulse · "Got double_tap"')
    expect(rejected.code).toBe(1)
    expect(rejected.stdout).toContain('← 401')
    expect(rejected.stdout).toContain('Not acknowledged (unauthorized)')
    expect(rejected.stdout).toContain('Fix: check the secret')
    expect(rejected.stdout + rejected.stderr).not.toContain('whsec_wrong_secret')
  })

  it('simulate serves the API, prints a live log and stops on SIGTERM', async () => {
    const target = await startReceiver()
    const { child, done } = ringhook(['simulate', '--port', '0', '--webhook-url', target.url, '--secret', secret])
    let output = ''
    const [simUrl, token] = await new Promise<string[]>((resolve) => {
      child.stdout?.on('data', (chunk) => {
        output += chunk
        const found = /ringhook simulator on (http:\/\/\S+)[\s\S]*\n {2}Token +(\S+)/.exec(output)
        if (found) resolve(found.slice(1))
      })
    })
    const users = await fetch(`${simUrl}/v1/apps/app_demo_control/users`, {
      headers: { authorization: 'Bearer rk_sim_demo_key' },
    })
    expect(((await users.json()) as { users: unknown[] }).users).toHaveLength(4)
    // As the banner's curl line does it: the token from the banner in its header.
    const gesture = await fetch(`${simUrl}/_sim/installs/a0a0a0a0-0000-4000-8000-000000000001/gesture`, {
      method: 'POST',
      headers: { 'x-ringhook-sim-token': token as string },
      body: JSON.stringify({ gesture_type: 'double_tap', wait: true }),
    })
    expect(gesture.status).toBe(200)
    expect(output).toContain(`-H "x-ringhook-sim-token: ${token}"`)
    expect(target.received[0]?.json).toMatchObject({ event: 'gesture', external_user_id: 'demo-ada' })
    child.kill('SIGTERM')
    const result = await done
    await target.close()
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/API +GET \/v1\/apps\/app_demo_control\/users → 200 \(key_demo\)/)
    expect(result.stdout).toMatch(/GESTURE +double_tap by a0a0a0a0…/)
    expect(result.stdout).toMatch(/WEBHOOK +gesture #1 → 200/)
    expect(result.stdout).not.toContain(secret)
  })
})

/** Runs `ringhook simulate` in-process until `stop()`; `printed(pattern)` resolves with the first line that matches. */
function simulateInProcess(args: string[]) {
  const lines: string[] = []
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = []
  const print = (text: string) => {
    lines.push(text)
    for (const wait of waiting.filter((w) => w.pattern.test(text))) {
      waiting.splice(waiting.indexOf(wait), 1)
      wait.resolve(text)
    }
  }
  let stop = () => {}
  const stopped = new Promise<void>((resolve) => {
    stop = resolve
  })
  const exit = run(['simulate', '--port', '0', '--no-ui', ...args], { out: print, err: print }, { stopped })
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const found = lines.find((line) => pattern.test(line))
      if (found === undefined) waiting.push({ pattern, resolve })
      else resolve(found)
    })
  return { lines, printed, stop, exit }
}

describe('ringhook simulate prints nothing from outside raw', () => {
  // Escape sequences that would retitle the window, clear the screen, ring the bell, and a
  // newline that would forge a log line of its own.
  const EVIL = '\u001b]0;pwned\u0007\u001b[2J\r\nFORGED  VIBE delivered\u009b31m'
  // biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what must not be printed
  const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

  it('shows control characters in ids and messages as visible escapes, one entry per line', async () => {
    const target = await startReceiver((request) => ({
      status: 200,
      body:
        request.json.event === 'gesture' ? { success: true, vibe: { sequence: [{ type: 'tap' }], message: EVIL } } : {},
    }))
    const cli = simulateInProcess(['--webhook-url', target.url])
    try {
      const banner = await cli.printed(/Press Ctrl-C/)
      const simUrl = /ringhook simulator on (\S+)/.exec(banner)?.[1] as string
      const token = /Token +(\S+)/.exec(banner)?.[1] as string
      const control = (path: string, body: unknown) =>
        fetch(`${simUrl}/_sim${path}`, {
          method: 'POST',
          headers: { 'x-ringhook-sim-token': token },
          body: JSON.stringify(body),
        })
      expect((await control('/users', { id: `usr_${EVIL}`, name: 'Eve' })).status).toBe(201)
      const ada = 'a0a0a0a0-0000-4000-8000-000000000001'
      expect((await control(`/installs/${ada}/gesture`, { gesture_type: 'double_tap', wait: true })).status).toBe(200)

      const state = await cli.printed(/STATE +user\.created usr_/)
      const vibeLine = await cli.printed(/^\S+ +VIBE +delivered/)
      const shown = '\\u001b]0;pwned\\u0007\\u001b[2J\\u000d\\u000aFORGED  VIBE delivered\\u009b31m'
      expect(state).toContain(`user.created usr_${shown}`)
      expect(vibeLine).toContain(`"${shown}"`)
      expect(cli.lines.filter((line) => RAW_CONTROL.test(line))).toEqual([])
      expect(
        cli.lines
          .join('\n')
          .split('\n')
          .filter((line) => line.startsWith('FORGED')),
      ).toEqual([])
    } finally {
      cli.stop()
      await target.close()
    }
    expect(await cli.exit).toBe(0)
  })

  it('keeps --json lines valid JSON with the data intact', async () => {
    const cli = simulateInProcess(['--json'])
    try {
      const banner = await cli.printed(/Press Ctrl-C/)
      const simUrl = /ringhook simulator on (\S+)/.exec(banner)?.[1] as string
      const token = /Token +(\S+)/.exec(banner)?.[1] as string
      const name = `Eve ${EVIL}`
      await fetch(`${simUrl}/_sim/users`, {
        method: 'POST',
        headers: { 'x-ringhook-sim-token': token },
        body: JSON.stringify({ id: 'usr_eve', name }),
      })
      const line = await cli.printed(/"id":"usr_eve"/)
      expect(line).not.toMatch(RAW_CONTROL)
      expect(JSON.parse(line)).toMatchObject({ type: 'state', change: 'user.created', object: { name } })
    } finally {
      cli.stop()
    }
    expect(await cli.exit).toBe(0)
  })
})

describe('ringhook simulate with RINGHOOK_SIM_TOKEN', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('takes its token from the environment and never prints it', async () => {
    const token = 'script_token_0123456789'
    vi.stubEnv('RINGHOOK_SIM_TOKEN', token)
    const cli = simulateInProcess([])
    try {
      const banner = await cli.printed(/Press Ctrl-C/)
      const simUrl = /ringhook simulator on (\S+)/.exec(banner)?.[1] as string
      expect(banner).toContain('Token      the RINGHOOK_SIM_TOKEN you set')
      expect(banner).toContain('-H "x-ringhook-sim-token: $RINGHOOK_SIM_TOKEN"')
      expect(banner).not.toContain(token)
      const reset = (value: string) =>
        fetch(`${simUrl}/_sim/reset`, { method: 'POST', headers: { 'x-ringhook-sim-token': value } })
      expect((await reset('another_token_0123456789')).status).toBe(401)
      expect((await reset(token)).status).toBe(200)
    } finally {
      cli.stop()
    }
    expect(await cli.exit).toBe(0)
  })
})

describe('ringhook resend', () => {
  it('resends one delivery, then every delivery that failed in the last minutes, of a running simulator', async () => {
    let fixed = false
    const target = await startReceiver(() => (fixed ? { status: 200 } : { status: 500 }))
    // 30 s of real time to answer (not the spec's 30 s scaled, 600 ms, which a busy machine can pass).
    const sim = await createSimulator({ timeScale: 0.02, ackTimeoutMs: 1_500_000 })
    try {
      const key = sim.keys.create()
      const app = sim.apps.create({ key_id: key.id, webhook_url: target.url })
      await sim.install(app.app_id, sim.users.create().id, { activate: true, wait: true })
      fixed = true
      const args = ['--sim', sim.url, '--token', sim.token]
      const one = await inProcess(['resend', 'dlv_1', ...args])
      expect(one).toMatchObject({ code: 0, stdout: '✔ app.installed dlv_1 resent as dlv_3' })
      await sim.idle()
      const all = await inProcess(['resend', '--failed-since', '5m', '--json', ...args])
      expect(JSON.parse(all.stdout).map((d: { resend_of: string }) => d.resend_of)).toEqual(['dlv_1', 'dlv_2'])
      const refused = await inProcess(['resend', 'dlv_1', '--sim', sim.url, '--token', 'wrong_token_0123456789'])
      expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('401 token_required') })
      expect((await inProcess(['resend', '--token', sim.token])).code).toBe(2)
    } finally {
      await sim.close()
      await target.close()
    }
  })
})

describe('ringhook simulate --faults', () => {
  it('injects the profile into deliveries, labels each fault in the live log, and prints the client line', async () => {
    const target = await startReceiver()
    const cli = simulateInProcess(['--faults', 'chaos', '--time-scale', '0.01', '--webhook-url', target.url])
    try {
      const banner = await cli.printed(/Press Ctrl-C/)
      const simUrl = /ringhook simulator on (\S+)/.exec(banner)?.[1] as string
      // The base URL without /v1: @ringhook/client adds its own prefix.
      expect(banner).toContain(`Client     RING_BASE_URL=${simUrl} RING_API_KEY=rk_sim_demo`)
      expect(await cli.printed(/^Faults +chaos/)).toMatch(/seed \d+/)
      const token = /Token +(\S+)/.exec(banner)?.[1] as string
      const gesture = () =>
        fetch(`${simUrl}/_sim/installs/${/installs\/([^/]+)\/gesture/.exec(banner)?.[1]}/gesture`, {
          method: 'POST',
          headers: { 'x-ringhook-sim-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ gesture_type: 'tap' }),
        })
      const fault = cli.printed(/ FAULT +\w+ on /)
      for (let n = 0; n < 10; n++) expect((await gesture()).status).toBe(200)
      expect(await fault).toMatch(/FAULT +(duplicate|lost_ack|slow|reorder|same_second|skew_\w+|rotation|burst) on /)
    } finally {
      cli.stop()
      await target.close()
    }
    expect(await cli.exit).toBe(0)
  })
})

describe('commands in-process', () => {
  let target: TestReceiver
  beforeAll(async () => {
    target = await startReceiver(() => ({
      status: 200,
      body: { success: true, vibe: { sequence: [{ type: 'buzz' }] } },
    }))
  })
  afterAll(() => target.close())

  it('send exits 1 when the vibe reply breaks the trigger rules, naming the rule', async () => {
    const result = await inProcess(['send', 'gesture', '--url', target.url, '--secret', secret])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/✘ The vibe reply breaks the trigger rules: vibe\.sequence\.0\.type/)
  })

  it('send exits 3 when nothing answers, 2 for a usage error', async () => {
    const closed = await startReceiver()
    await closed.close()
    const unreachable = await inProcess(['send', 'app.activated', '--url', closed.url, '--secret', secret])
    expect(unreachable).toMatchObject({ code: 3, stderr: expect.stringContaining('ECONNREFUSED') })
    for (const args of [
      ['send', 'gesture', '--secret', secret, '--url', 'not a url'],
      ['send', 'gesture', '--url', target.url],
      ['send', 'teleport', '--url', target.url, '--secret', secret],
      ['send', '--payload', '{oops', '--url', target.url, '--secret', secret],
      ['sign', 'gesture'],
      ['sign', 'gesture', '--secret', secret, '--url', 'not a url'],
      ['sign', 'gesture', 'app.activated', '--secret', secret],
      ['simulate', '--time-scale', 'fast'],
      ['simulate', 'now'],
      ['simulate', '--faults', 'sunny'],
    ]) {
      expect((await inProcess(args)).code).toBe(2)
    }
  })

  it('sign --json signs a given payload exactly and send --json reports it', async () => {
    const payload =
      '{"event":"app.installed","user_app_id":"u","app_id":"app_x","timestamp":"2026-01-01T00:00:00Z","data":{}}'
    const signed = await inProcess([
      'sign',
      '--payload',
      payload,
      '--secret',
      secret,
      '--json',
      '--timestamp',
      '1700000000',
    ])
    const parsed = JSON.parse(signed.stdout) as { body: string; headers: Record<string, string> }
    expect(parsed.body).toBe(payload)
    expect(parsed.headers['X-SERVICE-Timestamp']).toBe('1700000000')
    const sent = await inProcess(['send', '--payload', payload, '--url', target.url, '--secret', secret, '--json'])
    expect(JSON.parse(sent.stdout)).toMatchObject({ event: 'app.installed', status: 200, ok: true })
  })
})

describe('friendly defaults', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('send, sign and doctor read RING_WEBHOOK_SECRET and default --url to localhost:3000/webhooks', async () => {
    vi.stubEnv('RING_WEBHOOK_SECRET', secret)
    const sent = await inProcess(['send', 'gesture', '--url', url])
    expect(sent.code).toBe(0)
    expect(sent.stdout).toContain('✔ The vibe reply follows the trigger rules')
    const signed = await inProcess(['sign', 'app.activated', '--json'])
    const { body, headers, curl } = JSON.parse(signed.stdout) as {
      body: string
      headers: Record<string, string>
      curl: string
    }
    expect(curl).toContain('curl -X POST http://localhost:3000/webhooks')
    const signature = headers['X-SERVICE-Signature']
    const timestamp = headers['X-SERVICE-Timestamp']
    expect(await verifyWebhook({ rawBody: body, signature, timestamp, secret })).toMatchObject({ ok: true })
    expect((await inProcess(['doctor', '--url', url])).code).toBe(0)
    vi.stubEnv('RING_WEBHOOK_SECRET', '')
    const missing = await inProcess(['send', 'gesture', '--url', url])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--secret is required (or set RING_WEBHOOK_SECRET)')
  })

  it('cuts an HTML 5xx to a few lines and blames the framework, not the receiver', async () => {
    const page = `<!DOCTYPE html>\n<html><head><title>Error</title><style>body{}</style></head><body>\n<pre>TypeError: boom<br> &nbsp;at handler (app.js:1:1)<br>${'&nbsp;at frame (x.js:1:1)<br>'.repeat(80)}</pre>\n</body></html>`
    const crashing = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(500, { 'content-type': 'text/html' }).end(page))
    })
    await new Promise<void>((resolve) => crashing.listen(0, '127.0.0.1', resolve))
    const crashingUrl = `http://127.0.0.1:${(crashing.address() as AddressInfo).port}/webhooks`
    try {
      const sent = await inProcess(['send', 'gesture', '--url', crashingUrl, '--secret', secret])
      expect(sent.code).toBe(1)
      expect(sent.stdout).toContain('TypeError: boom')
      expect(sent.stdout).not.toContain('<pre>')
      expect(sent.stdout.split('\n').length).toBeLessThan(12)
      expect(sent.stdout).toContain(`(${page.length} bytes in all)`)
      expect(sent.stdout).toContain('HTML page from the web framework or a proxy, not from the ringhook receiver')
      const doctor = await inProcess(['doctor', '--url', crashingUrl, '--secret', secret])
      expect(doctor.code).toBe(1)
      expect(doctor.stdout).toContain('✗ The signed gesture got a 500 HTML page')
      expect(doctor.stdout).toContain('not from the ringhook receiver')
    } finally {
      await new Promise<void>((resolve) => crashing.close(() => resolve()))
    }
  })

  it('doctor lists every check it ran, passed or failed, and says its probes are in the app log', async () => {
    const sound = await inProcess(['doctor', '--url', url, '--secret', secret])
    for (const line of [
      '✓ A signed gesture was acknowledged: 200',
      '✓ The gesture reply is a valid vibe',
      '✓ A delivery with no signature was refused (401)',
      '✓ A delivery signed with another secret was refused (401)',
      '✓ A delivery signed 6 minutes ago was refused (401)',
      '✓ The signature is checked over the raw bytes',
      '✓ A repeated delivery got the same answer as the first',
    ]) {
      expect(sound.stdout).toContain(line)
    }
    expect(sound.stdout).toContain(`appears in your app's log`)
    const open = await startReceiver(() => ({ status: 200, body: { success: true } }))
    try {
      const careless = await inProcess(['doctor', '--url', open.url, '--secret', secret])
      expect(careless.code).toBe(1)
      expect(careless.stdout).toContain('✗ A delivery with no signature was accepted')
      expect(careless.stdout).toContain('✓ A signed gesture was acknowledged: 200')
    } finally {
      await open.close()
    }
  })
})

describe('ringhook doctor and jobs', () => {
  it('doctor exits 0 on a sound receiver and 1 with the fix named on a wrong secret', async () => {
    const sound = await inProcess(['doctor', '--url', url, '--secret', secret])
    expect(sound.code).toBe(0)
    expect(sound.stdout).toContain('✓ A signed gesture was acknowledged: 200')
    expect(sound.stdout).toContain('No problem found.')
    const wrong = await inProcess(['doctor', '--url', url, '--secret', 'whsec_not_this_one', '--json'])
    expect(wrong.code).toBe(1)
    const report = JSON.parse(wrong.stdout) as { findings: { id: string; level: string; detail: string }[] }
    const failed = report.findings.filter((f) => f.level === 'fail')
    expect(failed.map((f) => f.id)).toEqual(['wrong_secret'])
    expect(failed[0]?.detail).toContain('apps page')
  })

  it('doctor refuses a missing secret or URL as a usage error', async () => {
    vi.stubEnv('RING_WEBHOOK_SECRET', '')
    expect((await inProcess(['doctor', '--url', url])).code).toBe(2)
    vi.unstubAllEnvs()
    expect((await inProcess(['doctor', '--secret', secret, '--url', 'not a url'])).code).toBe(2)
  })

  it('jobs hands over to @ringhook/bullmq', async () => {
    const help = await inProcess(['jobs', '--help'])
    expect(help.stdout + help.stderr).toContain('Usage: ringhook jobs <command>')
  })
})
