/**
 * One HTTP contender in its own process, so the load generator never shares its event loop.
 * Started by run.ts with the app id as argument; talks over the fork IPC channel:
 *   -> { type: 'ready', port }           once listening on 127.0.0.1
 *   <- { type: 'stats', flush? } -> { type: 'stats', maxRssKb, handled, cpuUs, capture? }
 * With `flush`, a server that captures deliveries first waits for its records to be written, and
 * reports what its capture counted.
 */

import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { CaptureStats } from '@ringhook/core/capture'
import { APPS, captures, cleanups, stats } from './apps.js'

export type ServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'stats'; maxRssKb: number; handled: number; cpuUs: number; capture?: CaptureStats }
  | { type: 'error'; message: string }

const send = (message: ServerMessage): void => void process.send?.(message)

const id = process.argv[2] ?? ''
const build = APPS[id]
if (!build) {
  send({ type: 'error', message: `unknown app "${id}"` })
  process.exit(1)
}

try {
  const server = await build()
  server.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as AddressInfo).port }))
  process.on('message', async (message: { type?: string; flush?: boolean }) => {
    if (message.type !== 'stats') return
    // CPU of the whole process (every thread: GC helpers too), user and system, in µs.
    const { user, system } = process.cpuUsage()
    const reply: Extract<ServerMessage, { type: 'stats' }> = {
      type: 'stats',
      maxRssKb: peakRssKb(),
      handled: stats.handled,
      cpuUs: user + system,
    }
    const [capture] = captures
    if (message.flush && capture) {
      await capture.flush()
      reply.capture = capture.stats()
    }
    send(reply)
  })
  // The parent going away ends the bench: never leave a server behind.
  process.on('disconnect', async () => {
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()))
    process.exit(0)
  })
} catch (error) {
  send({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  process.exit(1)
}

/**
 * The process's peak RSS in KiB. On Linux, the address space's own high-water mark (VmHWM): getrusage's
 * maxRSS survives exec, so a server forked from the load generator would report at least the load
 * generator's RSS at the fork (its pool of signed requests: 271 MB in one run, for every server).
 */
function peakRssKb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) return Number(hwm[1])
  } catch {
    // Not Linux: maxRSS, whose floor is the parent's RSS at the fork.
  }
  return process.resourceUsage().maxRSS
}
