import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { verifyWebhook } from '@ringhook/core/signature'
import { ringhook as nodeRinghook } from '@ringhook/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../src/cli/run.js'
import { startReceiver, type TestReceiver } from './support.js'

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

/** Runs the CLI in-process and captures what it prints. */
async function inProcess(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await run(args, { out: (t) => void out.push(t), err: (t) => void err.push(t) })
  return { code, stdout: out.join('\n'), stderr: err.join('\n') }
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
    const simUrl = await new Promise<string>((resolve) => {
      child.stdout?.on('data', (chunk) => {
        output += chunk
        const found = /ringhook simulator on (http:\/\/\S+)/.exec(output)
        if (found) resolve(found[1] as string)
      })
    })
    const users = await fetch(`${simUrl}/v1/apps/app_demo_control/users`, {
      headers: { authorization: 'Bearer rk_sim_demo_key' },
    })
    expect(((await users.json()) as { users: unknown[] }).users).toHaveLength(4)
    await fetch(`${simUrl}/_sim/installs/a0a0a0a0-0000-4000-8000-000000000001/gesture`, {
      method: 'POST',
      body: JSON.stringify({ gesture_type: 'double_tap', wait: true }),
    })
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
      ['send', 'gesture', '--secret', secret],
      ['send', 'gesture', '--url', target.url],
      ['send', 'teleport', '--url', target.url, '--secret', secret],
      ['send', '--payload', '{oops', '--url', target.url, '--secret', secret],
      ['sign', 'gesture'],
      ['sign', 'gesture', '--secret', secret, '--url', 'not a url'],
      ['sign', 'gesture', 'app.activated', '--secret', secret],
      ['simulate', '--time-scale', 'fast'],
      ['simulate', 'now'],
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

describe('ringhook doctor and jobs', () => {
  it('doctor exits 0 on a sound receiver and 1 with the fix named on a wrong secret', async () => {
    const sound = await inProcess(['doctor', '--url', url, '--secret', secret])
    expect(sound.code).toBe(0)
    expect(sound.stdout).toContain('✓ A signed gesture was acknowledged: 200')
    expect(sound.stdout).toContain('No problem found.')
    const wrong = await inProcess(['doctor', '--url', url, '--secret', 'whsec_not_this_one', '--json'])
    expect(wrong.code).toBe(1)
    const report = JSON.parse(wrong.stdout) as { findings: { id: string; detail: string }[] }
    expect(report.findings.map((f) => f.id)).toEqual(['wrong_secret'])
    expect(report.findings[0]?.detail).toContain('apps page')
  })

  it('doctor refuses a missing secret or URL as a usage error', async () => {
    expect((await inProcess(['doctor', '--url', url])).code).toBe(2)
    expect((await inProcess(['doctor', '--secret', secret, '--url', 'not a url'])).code).toBe(2)
  })

  it('jobs hands over to @ringhook/bullmq', async () => {
    const help = await inProcess(['jobs', '--help'])
    expect(help.stdout + help.stderr).toContain('Usage: ringhook-jobs')
  })
})
