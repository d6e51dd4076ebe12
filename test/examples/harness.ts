// Starts an example the way its README says (`pnpm --dir examples/<name> start`), as a real
// process, and stops it the way a deploy does: SIGTERM to that very process, the pnpm launcher, not
// to its process group. Shared by the suites that run the examples as processes.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { ROOT } from '../runtimes/built.js'
import { printedPort } from '../support/ports.js'

export interface Started {
  child: ChildProcess
  output: () => string
}

/** Runs `pnpm <script>` in its own process group, so the test can tell whether anything outlived it. */
export function startExample(name: string, env: Record<string, string>, script = 'start'): Started {
  const { RING_WEBHOOK_SECRET: _, ADMIN_TOKEN: __, RINGHOOK_CAPTURE_FILE: ___, ...inherited } = process.env
  const child = spawn('pnpm', ['--dir', join(ROOT, 'examples', name), script], {
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

export function waitFor({ child, output }: Started, pattern: RegExp): Promise<void> {
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

/** The port the example bound (it is started with PORT=0), once it says it is listening. */
export async function listeningPort(started: Started): Promise<number> {
  await waitFor(started, /listening on http:\/\/\S+:\d+/)
  return printedPort(started.output()) ?? Number.NaN
}

/** Whether any process of the group (pnpm, node) is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether the group is gone within a moment: an exited process lingers until its parent reaps it. */
export async function groupGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && groupAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  return !groupAlive(pid)
}

/**
 * Sends SIGTERM to the launcher alone, as a process manager does to what it started, and waits
 * until every process let go of the output. Returns the launcher's exit code.
 */
export async function stop({ child }: Started): Promise<number | null> {
  const closed = once(child, 'close')
  child.kill('SIGTERM')
  const [code] = await closed
  return code as number | null
}

/** Kills whatever is left of the group; a test that got here has already failed. */
export function cleanUp({ child }: Started): void {
  if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL')
}
