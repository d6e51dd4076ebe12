import { setTimeout as sleep } from 'node:timers/promises'
import { type Delivery, post } from '../../support/events.js'

/** One attempt as the service saw it; status 0 when the connection failed. */
export interface Attempt {
  url: string
  status: number
  code: string | undefined
  retryAfter: string | null
}

export interface DeliverOptions {
  /** Pause between attempts; the real service waits 1 s, 5 s and 30 s. */
  retryDelayMs?: number
  /** Give up after this long, failing the test. */
  giveUpAfterMs?: number
  onAttempt?: (attempt: Attempt) => void
}

/**
 * Delivers like the service: every answer that is not 2xx is retried, each time on the next
 * instance in turn (a load balancer guarantees no instance). Unlike the service it retries
 * quickly and until it succeeds, so a test can prove that nothing is lost.
 */
export async function deliver(delivery: Delivery, urls: string[], options: DeliverOptions = {}) {
  const { retryDelayMs = 50, giveUpAfterMs = 10_000 } = options
  const attempts: Attempt[] = []
  const deadline = Date.now() + giveUpAfterMs
  for (let turn = 0; ; turn++) {
    const url = urls[turn % urls.length] as string
    const answer = await post(url, delivery).catch(() => undefined)
    const status = answer?.status ?? 0
    const error = answer?.body?.error as { code?: string } | undefined
    const attempt = { url, status, code: error?.code, retryAfter: answer?.headers.get('retry-after') ?? null }
    attempts.push(attempt)
    options.onAttempt?.(attempt)
    if (answer && status >= 200 && status < 300) return { ...answer, attempts }
    if (Date.now() > deadline) throw new Error(`not delivered after ${attempts.length} attempts`)
    await sleep(retryDelayMs)
  }
}
