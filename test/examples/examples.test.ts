// Starts each example the way its README says (`pnpm --dir examples/<name> start`), as a real
// process on a free port, and talks to it over HTTP. The examples run the packages' built output.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from '../runtimes/built.js'

assertBuilt('core', 'node', 'express', 'hono', 'fastify', 'koa', 'nestjs')

const SECRET = 'whsec_example_test'

const examples = [
  { name: 'node-http', api: false },
  { name: 'express', api: true },
  { name: 'hono', api: true },
  { name: 'fastify', api: true },
  { name: 'koa', api: true },
  { name: 'nestjs', api: true },
]

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Runs `pnpm start` in its own process group, so stopping it stops tsx and node under it too. */
function startExample(name: string, env: Record<string, string>) {
  const { RING_WEBHOOK_SECRET: _, ...inherited } = process.env
  const child = spawn('pnpm', ['--dir', join(ROOT, 'examples', name), 'start'], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  return { child, output: () => output }
}

function waitFor(child: ChildProcess, output: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (pattern.test(output())) done(resolve)
    }, 50)
    const fail = () => done(() => reject(new Error(`exited before printing ${pattern}:\n${output()}`)))
    const done = (then: () => void) => {
      clearInterval(timer)
      child.off('exit', fail)
      then()
    }
    child.once('exit', fail)
  })
}

/** Sends SIGTERM to the whole group, as a process manager would, and waits until every process let go of the output. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return
  const closed = once(child, 'close')
  process.kill(-child.pid, 'SIGTERM')
  await closed
}

let sent = 0

async function sendGesture(base: string) {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    // A distinct payload timestamp each time: an identical payload would be answered as a duplicate.
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  const response = await fetch(`${base}/webhooks`, { method: 'POST', headers, body })
  return { status: response.status, body: await response.json() }
}

const vibeWith = (message: string) => ({
  status: 200,
  body: { success: true, vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message } },
})

describe.concurrent('examples', () => {
  it.each(examples)('$name answers a signed gesture with a vibe', async ({ name, api }) => {
    const port = await freePort()
    const { child, output } = startExample(name, { RING_WEBHOOK_SECRET: SECRET, PORT: String(port) })
    try {
      await waitFor(child, output, /listening on/)
      const base = `http://127.0.0.1:${port}`
      expect(await sendGesture(base)).toEqual(vibeWith('Got your double_tap'))
      if (api) {
        // The app's JSON API, parsed by the framework, lives beside the webhook route.
        const set = await fetch(`${base}/api/reply-message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Hello from the API' }),
        })
        expect(await set.json()).toEqual({ message: 'Hello from the API' })
        expect(await sendGesture(base)).toEqual(vibeWith('Hello from the API'))
      }
    } finally {
      await stop(child)
    }
    expect(output()).toContain('Stopped cleanly')
  })

  it.each(examples)('$name exits 1 and says why when RING_WEBHOOK_SECRET is missing', async ({ name }) => {
    const { child, output } = startExample(name, { PORT: String(await freePort()) })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output()).toContain('RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page')
  })
})
