import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { InstanceMessage, KillPoint } from './inbox-instance.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const SCRIPT = fileURLToPath(new URL('./inbox-instance.ts', import.meta.url))

/** A receiver process on the inbox, and the URL it serves. */
export interface ChildInstance {
  readonly url: string
  readonly port: number
  readonly child: ChildProcess
  /** Resolves when the process has exited (after a kill, or by itself). */
  readonly exited: Promise<unknown>
  stop(): Promise<void>
}

/** Starts a receiver process writing its effects into `effects`; with `killAt`, it dies there. */
export async function startChild(
  table: string,
  effects: string,
  options: { killAt?: KillPoint; holdMs?: number } = {},
): Promise<ChildInstance> {
  const child = fork(SCRIPT, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      RINGHOOK_PG_TABLE: table,
      RINGHOOK_PG_EFFECTS: effects,
      RINGHOOK_KILL_AT: options.killAt ?? '',
      RINGHOOK_HOLD_MS: String(options.holdMs ?? 0),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = once(child, 'exit')
  const ready = new Promise<InstanceMessage>((resolve, reject) => {
    child.once('message', resolve)
    exited.then(([code]) => reject(new Error(`the instance exited (${code}) before it was ready`)))
  })
  const { port } = await ready
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    child,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}
