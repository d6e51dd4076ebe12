/** A value now, or later: pipeline stages stay synchronous until something really waits. */
export type Awaitable<T> = T | Promise<T>

/** Whether a value is a promise or another thenable (a store may return any Promises/A+ promise). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function'

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown }

const succeeded = <T>(value: T): Attempt<T> => ({ ok: true, value })
/** Calls `run`, turning a throw or a rejection into `{ ok: false, error }`; synchronous when `run` is. */
export function attempt<T>(run: () => Awaitable<T> | PromiseLike<T>): Awaitable<Attempt<T>> {
  try {
    return outcome(run())
  } catch (error) {
    return failed(error)
  }
}

/**
 * What a call that returned `value` came to: `{ ok: true, value }`, or `{ ok: false, error }` once
 * a promise it returned rejects. For a caller that makes the call in its own `try` (a throw is
 * `failed(error)`), where `attempt` would need a closure for it.
 */
export function outcome<T>(value: Awaitable<T> | PromiseLike<T>): Awaitable<Attempt<T>> {
  return isThenable(value) ? Promise.resolve(value).then(succeeded, failed) : succeeded(value as T)
}

/** A call that threw, as a value. */
export const failed = (error: unknown): Attempt<never> => ({ ok: false, error })
