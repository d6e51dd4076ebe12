import { RinghookConfigError } from '@ringhook/core'
import type { ObjectNamespace } from './bindings.js'
import { DurableStoreError, type DurableStoreKind } from './errors.js'
import type { Operation } from './protocol.js'

/** A store's way to one of its objects: the binding, and how long one call may take. */
export interface Caller {
  readonly store: DurableStoreKind
  readonly namespace: ObjectNamespace
  readonly timeoutMs: number
}

/** Checks a store's options: a namespace binding, a positive timeout. */
export function caller(
  store: DurableStoreKind,
  options: { namespace: ObjectNamespace; timeoutMs?: number },
  fallbackTimeoutMs: number,
  name: string,
): Caller {
  const namespace = options?.namespace
  if (typeof namespace?.idFromName !== 'function' || typeof namespace?.get !== 'function') {
    throw new RinghookConfigError(
      `${name} needs \`namespace\`: the Durable Object binding of RinghookObject (env.RINGHOOK), declared in the wrangler config`,
    )
  }
  const timeoutMs = options.timeoutMs ?? fallbackTimeoutMs
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RinghookConfigError(`${name}: timeoutMs must be a positive number, got ${timeoutMs}`)
  }
  return { store, namespace, timeoutMs }
}

/**
 * Runs `operation` in the object called `name` and resolves with its answer. The object answers
 * only once its writes are stored (its output gate), so an answer means they are durable. Anything
 * else (no answer within the timeout, the object unreachable or failing) rejects with a
 * {@link DurableStoreError}.
 */
export const call = <T>(to: Caller, name: string, operation: Operation, args: readonly unknown[]): Promise<T> =>
  bounded(to, operation, send<T>(to, name, operation, args))

/** Sends `operation` to the object called `name`; its answer, however long it takes. */
export async function send<T>(to: Caller, name: string, operation: Operation, args: readonly unknown[]): Promise<T> {
  const stub = to.namespace.get(to.namespace.idFromName(name))
  const body = JSON.stringify({ operation, args })
  const response = await stub.fetch(new Request('https://ringhook.object/', { method: 'POST', body }))
  const answer = (await response.json()) as { value?: T; error?: string }
  if (!response.ok || answer.error !== undefined) {
    throw new DurableStoreError(to.store, operation, answer.error ?? `status ${response.status}`)
  }
  return answer.value as T
}

/** `work`'s answer, or a {@link DurableStoreError} once the caller's timeout has passed or it failed. */
export async function bounded<T>(to: Caller, operation: Operation, work: Promise<T>): Promise<T> {
  work.catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DurableStoreError(to.store, operation, `no answer within ${to.timeoutMs} ms`)),
      to.timeoutMs,
    )
  })
  try {
    return await Promise.race([work, expired])
  } catch (error) {
    if (error instanceof DurableStoreError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new DurableStoreError(to.store, operation, message, { cause: error })
  } finally {
    clearTimeout(timer)
  }
}
