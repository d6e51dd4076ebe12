import type { Lifecycle } from './lifecycle.js'

// A registered symbol, so that a receiver made by one copy of core (its CommonJS build, say) is
// still found by an adapter that loaded the other.
const LIFECYCLE = Symbol.for('ringhook.receiver.lifecycle')

interface WithLifecycle {
  readonly [LIFECYCLE]?: Lifecycle
}

/** Lets {@link beginArrival} find the receiver's lifecycle (called once, by `createReceiver`). */
export function attachLifecycle(receiver: object, lifecycle: Lifecycle): void {
  Object.defineProperty(receiver, LIFECYCLE, { value: lifecycle })
}

const NOTHING_TO_END = (): void => {}

/**
 * For a host that reads a delivery's body before it calls `receiver.handle` (Fastify's content-type
 * parser): counts the delivery as in flight from then on, so that `receiver.close()` waits for its
 * answer as it does for a body the receiver reads itself. Returns the function that ends the count
 * (call it once the delivery is answered or abandoned; later calls do nothing), or `undefined` when
 * the receiver is closing: leave the body unread then, and `handle` answers 503 at once.
 */
export function beginArrival(receiver: object): (() => void) | undefined {
  const lifecycle = (receiver as WithLifecycle)[LIFECYCLE]
  // A receiver not made by createReceiver (a test double) has nothing to count.
  if (!lifecycle) return NOTHING_TO_END
  if (lifecycle.closing) return undefined
  lifecycle.begin()
  let open = true
  return () => {
    if (!open) return
    open = false
    lifecycle.end()
  }
}
