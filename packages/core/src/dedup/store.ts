import type { Awaitable } from '../awaitable.js'

/** The answer given to the original delivery, replayed to its duplicates. */
export interface StoredReply {
  /** The HTTP status. */
  status: number
  /** The body, as sent. */
  body: string
}

/** Outcome of claiming a delivery key. */
export type ClaimResult =
  | {
      /** This caller owns the delivery; it must later `complete` or `release` with the token. */
      state: 'claimed'
      /** Proves the claim is still this caller's when it completes or releases it. */
      token: string
    }
  | {
      /** Another caller is processing it right now. */
      state: 'in_flight'
    }
  | {
      /** It was processed; `reply` is what the original got. */
      state: 'completed'
      /** The answer the original delivery got, to replay. */
      reply: StoredReply
    }
  | {
      /**
       * The store has no room for another delivery without forgetting one that is still inside its
       * ttl. Nothing was claimed: the receiver answers 503 `store_full` so that the service retries.
       */
      state: 'full'
    }

/**
 * Where a receiver remembers deliveries. Implementations must make `claim` atomic: of any
 * number of concurrent claims for one key, exactly one gets `claimed`.
 * A key stays claimed or completed until its ttl has passed: a store never forgets it sooner to
 * make room (a forgotten key is a delivery handled twice); it answers `full` instead.
 * `complete` and `release` act only while `token` still owns the key, so an instance whose
 * claim expired cannot overwrite the work of the instance that took over.
 * Each method may answer with a promise or, for a store in this process's memory, with the value
 * itself: the receiver then handles the delivery without waiting a turn of the event loop.
 */
export interface DedupStore {
  /** Claims `key` for `inFlightTtlMs`; the claim lapses after that if never completed. */
  claim(key: string, inFlightTtlMs: number): Awaitable<ClaimResult>
  /** Marks `key` done and keeps `reply` for `ttlMs`. */
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Awaitable<void>
  /** Forgets a claim so that a retry can process the delivery again. */
  release(key: string, token: string): Awaitable<void>
}
