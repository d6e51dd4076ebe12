// examples/queue as a user runs it: its demo starts the web and worker processes, plays a session
// from the simulator, checks the outcome and stops both with SIGTERM; it exits 0 only if all held.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { connectRedis } from '../redis/support/redis.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/queue/', import.meta.url))
const run = promisify(execFile)

describe('examples/queue', () => {
  it('passes its demo: gesture answered inline, every other event handled once by the worker, clean stops', async () => {
    // Fails loudly, never skips, without Redis.
    ;(await connectRedis()).disconnect()
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/demo.ts'], {
      cwd: EXAMPLE,
      timeout: 60_000,
    })
    expect(stdout).toContain('✓ the gesture is answered inline with a vibe: Got your double_tap')
    expect(stdout).toContain('✓ the worker handled each stored event once')
    expect(stdout).toContain('✓ the web process stops cleanly on SIGTERM: exit code 0')
    expect(stdout).toContain('✓ the worker process stops cleanly on SIGTERM: exit code 0')
    expect(stdout).toMatch(/Demo passed\n$/)
  }, 60_000)

  it('refuses to start the web process without a secret, saying why', async () => {
    const { RING_WEBHOOK_SECRET: _, ...env } = process.env
    const failed = await run(process.execPath, ['--import', 'tsx', 'src/main-web.ts'], { cwd: EXAMPLE, env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stderr).toMatch(/RING_WEBHOOK_SECRET is not set/)
  })
})
