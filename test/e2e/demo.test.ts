// `pnpm demo`: the scripted session passes every check against the example app, fails loudly
// when the app cannot verify the webhooks, and exits with the right code as a process.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDemo } from '../../examples/demo/src/run-demo.js'
import { script } from '../../examples/demo/src/script.js'
import { assertBuilt, ROOT } from '../runtimes/built.js'

async function play(options: Partial<Parameters<typeof runDemo>[0]> = {}) {
  const chunks: string[] = []
  const result = await runDemo({ write: (text) => chunks.push(text), ...options })
  return { result, output: chunks.join('') }
}

describe('the demo', () => {
  it('plays every step, each check passing against the node:http example', async () => {
    const { result, output } = await play()
    expect(result).toMatchObject({ ok: true, failed: 0 })
    expect(result.passed).toBeGreaterThanOrEqual(25)
    for (const [i, step] of script.entries()) expect(output).toContain(`${String(i + 1).padStart(2)}. ${step.title}`)
    expect(output).not.toContain('✗')
    // What the timeline must show: the retry, the lost acknowledgement, the dedup store's answer.
    expect(output).toMatch(/gesture → 503 {2}\(attempt 1, \d+ ms, retry in 1 s \(20 ms here\)\)/)
    expect(output).toMatch(/notification\.responded → 502 .*\n(.*\n)*.*from the dedup store \(x-ringhook-duplicate\)/)
    expect(output).toContain('[app] app.uninstalled for user')
    expect(output).toContain('✓ all')
    // Plain text when not asked for colour; no secret on screen.
    expect(output).not.toContain('\u001b[')
    expect(output).not.toMatch(/whsec_/)
  })

  it('fails, with ✗ on the steps that broke, when the app has the wrong secret', async () => {
    // 100× faster: the 30 s answer limit is 300 ms, so a 401 that a loaded machine takes ~100 ms to
    // send is still a 401, not a timeout (at 1000× it was 30 ms, and one loaded run timed out).
    const { result, output } = await play({ appSecret: 'whsec_not_the_apps_secret', timeScale: 0.01, readMs: 20 })
    expect(result.ok).toBe(false)
    expect(result.failed).toBeGreaterThan(5)
    expect(output).toContain('app.installed → 401')
    expect(output).toContain('receiver: ')
    expect(output).toMatch(/✗ \d+ of \d+ checks failed/)
  })

  it('exits 0 as `pnpm --dir examples/demo start`, the command behind `pnpm demo`', async () => {
    assertBuilt('core', 'node', 'client', 'testing')
    const child = spawn('pnpm', ['--dir', join(ROOT, 'examples', 'demo'), 'start'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
    })
    const [code] = await once(child, 'exit')
    expect(output).toContain('✓ all')
    expect(code).toBe(0)
    // pnpm, a TypeScript loader and the whole session: 20 s was not enough beside two busy loops.
  }, 60_000)
})
