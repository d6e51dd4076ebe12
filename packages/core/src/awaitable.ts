/** A value now, or later: pipeline stages stay synchronous until something really waits. */
export type Awaitable<T> = T | Promise<T>

/** Whether a value is a promise or another thenable (a store may return any Promises/A+ promise). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function'

/**
 * Runs `next` on a value at once, or when its promise settles. A delivery whose body, secret,
 * store and handlers are all synchronous then passes through without one microtask.
 */
export function andThen<T, R>(value: Awaitable<T> | PromiseLike<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value as T)
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown }

const succeeded = <T>(value: T): Attempt<T> => ({ ok: true, value })
const failed = (error: unknown): Attempt<never> => ({ ok: false, error })

/** Calls `run`, turning a throw or a rejection into `{ ok: false, error }`; synchronous when `run` is. */
export function attempt<T>(run: () => Awaitable<T> | PromiseLike<T>): Awaitable<Attempt<T>> {
  try {
    const value = run()
    return isThenable(value) ? Promise.resolve(value).then(succeeded, failed) : succeeded(value as T)
  } catch (error) {
    return failed(error)
  }
}
