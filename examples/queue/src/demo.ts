// Plays a short session against the example: a web process and a worker process on one Redis,
// driven by the local simulator of the service. Checks that the gesture got its vibe inline and
// that the worker handled every other event once, then stops both with SIGTERM.
// Run: pnpm --dir examples/queue demo (needs Redis at REDIS_URL, default redis://127.0.0.1:6379).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { createSimulator } from '@ringhook/simulator'
import { Redis } from 'ioredis'
import { keys, readConfig } from './config.js'

const { redisUrl } = readConfig()
// A queue of its own, so the demo never meets another app on the same Redis.
const queue = `demo-${randomBytes(4).toString('hex')}`
const secret = `whsec_${randomBytes(16).toString('hex')}`
const children: ChildProcess[] = []

/** Starts one of the example's processes and resolves once it prints `ready`, with what matched it. */
async function start(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; printed: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], {
    env: { ...process.env, ...env, REDIS_URL: redisUrl, RINGHOOK_QUEUE: queue },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${output}`)), 20_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      process.stdout.write(`  ${chunk}`)
      const found = ready.exec(output)
      if (found) {
        clearTimeout(timer)
        resolve({ child, printed: found })
      }
    })
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready: ${output}`)))
  })
}

function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? '✓' : '✗'} ${what}${detail ? `: ${detail}` : ''}`)
  if (!ok) process.exitCode = 1
}

const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
const sim = await createSimulator({ timeScale: 0.01 })
try {
  // PORT=0: the web process binds a port the system picks, and prints it.
  const listening = /listening on http:\/\/[^:/\s]+:(\d+)/
  const web = await start('./main-web.ts', { PORT: '0', RING_WEBHOOK_SECRET: secret }, listening)
  const port = Number(web.printed[1])
  const worker = await start('./main-worker.ts', {}, /taking jobs/)

  const ada = sim.users.create({ name: 'Ada' })
  const key = sim.keys.create({ user_id: ada.id })
  const app = sim.apps.create({
    key_id: key.id,
    type: 'control',
    webhook_url: `http://127.0.0.1:${port}/webhooks`,
    secret,
  })
  const { install } = await sim.install(app.app_id, ada.id, { activate: true, wait: true })
  const uai = install.user_app_id
  const { vibe } = await sim.gesture(uai, 'double_tap', { wait: true })
  check('the gesture is answered inline with a vibe', vibe?.message === 'Got your double_tap', vibe?.message ?? 'none')
  await sim.passive(uai, { wait: true })
  await sim.deactivate(uai, { wait: true })
  await sim.idle()
  const deliveries = sim.log.deliveries()
  check(
    'every delivery is acknowledged',
    deliveries.every((d) => d.status === 'delivered'),
    `${deliveries.length} deliveries`,
  )

  const expected = ['app.installed', 'app.activated', 'control.passive', 'app.deactivated'].map((e) => `${e}:${uai}`)
  const deadline = Date.now() + 10_000
  let handled: string[] = []
  while (Date.now() < deadline) {
    handled = await redis.lrange(keys(queue).handled, 0, -1)
    if (handled.length >= expected.length) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  check(
    'the worker handled each stored event once',
    [...handled].sort().join() === [...expected].sort().join(),
    handled.join(', '),
  )

  for (const [name, child] of [
    ['web', web.child],
    ['worker', worker.child],
  ] as const) {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const [code] = await exited
    check(`the ${name} process stops cleanly on SIGTERM`, code === 0, `exit code ${code}`)
  }
} catch (error) {
  check('the session ran', false, (error as Error).message)
} finally {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await sim.close()
  // The demo's keys: its BullMQ queue and the worker's records.
  for (const pattern of [`bull:${queue}:*`, `example:${queue}:*`]) {
    const found = await redis.keys(pattern)
    if (found.length > 0) await redis.del(...found)
  }
  redis.disconnect()
}
console.log(process.exitCode ? 'Demo failed' : 'Demo passed')
