/** Time as the client sees it; injectable so tests of limits and backoff do not wait. */
export interface Clock {
  /** Milliseconds, like `Date.now()`. */
  now(): number
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** The longest wait one Node timer holds; a longer one would fire at once (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Real time. A wait longer than a timer holds is slept in parts, each timer re-armed for the rest. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const until = Date.now() + ms
      let timer: ReturnType<typeof setTimeout>
      const onAbort = () => {
        clearTimeout(timer)
        reject(signal?.reason)
      }
      const arm = () => {
        const left = until - Date.now()
        if (left > MAX_TIMER_MS) {
          timer = setTimeout(arm, MAX_TIMER_MS)
          return
        }
        timer = setTimeout(
          () => {
            signal?.removeEventListener('abort', onAbort)
            resolve()
          },
          Math.max(0, left),
        )
      }
      arm()
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}
