import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Asks `probe` every `everyMs` until it returns something, for what only the passing of time
 * brings about (a ttl running out, a server coming back). Throws after `timeoutMs`.
 */
export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 5_000, everyMs = 25 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: still not the case after ${timeoutMs} ms`)
    await sleep(everyMs)
  }
}
