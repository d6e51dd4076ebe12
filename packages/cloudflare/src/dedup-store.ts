import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import type { ObjectNamespace } from './bindings.js'
import { bounded, type Caller, call, caller, send } from './call.js'
import { shardCount, shardOf } from './shards.js'

/** Which objects the dedup store uses, how many, and how long it waits for one. */
export interface DurableStoreOptions {
  /** The Durable Object binding of {@link RinghookObject} (`env.RINGHOOK`). */
  namespace: ObjectNamespace
  /**
   * How many objects the deliveries are spread over, each key to one by its hash. Default 16. Every
   * instance must use the same number: changing it moves keys to other objects, whose deliveries then
   * go unrecognised until their ttl has passed.
   */
  shards?: number
  /** Put before every object's name; one per receiver sharing the binding. Default `'ringhook:dedup:'`. */
  prefix?: string
  /** Longest wait for one object. Past it the operation fails and the receiver answers 503. Default 2000 ms. */
  timeoutMs?: number
}

/** What the dedup store names its objects after unless told otherwise. */
export const DEFAULT_DEDUP_PREFIX = 'ringhook:dedup:'

/** The dedup store on Durable Objects: every operation is a call to an object, so each answers with a promise. */
export interface DurableStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): Promise<ClaimResult>
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void>
  release(key: string, token: string): Promise<void>
}

/**
 * A dedup store on Durable Objects, shared by every isolate of a Worker wherever it runs. Each key
 * belongs to one of `shards` objects by its hash; each operation is one transaction in that object,
 * which runs one at a time, so of any number of isolates claiming a delivery at once, one wins. A
 * claim answered is a claim stored. Any failure rejects with a `DurableStoreError`: the receiver
 * answers 503 `store_unavailable` and the service retries.
 *
 * @example
 * declare const env: { RINGHOOK: ObjectNamespace; RING_WEBHOOK_SECRET: string } // the Worker's bindings
 * const receiver = createReceiver({
 *   secret: env.RING_WEBHOOK_SECRET,
 *   store: createDurableStore({ namespace: env.RINGHOOK }),
 * })
 */
export function createDurableStore(options: DurableStoreOptions): DurableStore {
  const to: Caller = caller('dedup', options, 2_000, 'createDurableStore')
  const shards = shardCount(options.shards, 'createDurableStore')
  const prefix = options.prefix ?? DEFAULT_DEDUP_PREFIX
  const object = (key: string) => `${prefix}${shardOf(key, shards)}`

  const release = async (key: string, token: string): Promise<void> => {
    await call(to, object(key), 'release', [key, token])
  }

  return {
    async claim(key, inFlightTtlMs) {
      const token = crypto.randomUUID()
      const pending = send<ClaimResult>(to, object(key), 'claim', [key, token, inFlightTtlMs])
      try {
        return await bounded(to, 'claim', pending)
      } catch (error) {
        // Timed out, the claim may still land: released once it shows up, or it would turn the
        // service's retries away for its whole ttl (as the Redis store does). On Workers this runs
        // only while the request's context lives: a call still queued at the object when the
        // answer goes out is cancelled with it (the test of a stalled object sees that), and one
        // the object ran meanwhile holds the delivery for its in-flight ttl, then lapses.
        pending.then((late) => (late.state === 'claimed' ? release(key, token) : undefined)).catch(() => {})
        throw error
      }
    },
    async complete(key, token, reply, ttlMs) {
      await call(to, object(key), 'complete', [key, token, reply.status, reply.body, ttlMs])
    },
    release,
  }
}
