import type { StoredReply } from './store.js'

/** One delivery the memory store holds with its reply (or in flight), and who owns it. */
export interface Entry {
  readonly key: string
  /**
   * The claim's number; the token handed out is `m<id>`. A number costs no allocation. 0 once the
   * Map no longer holds it (released, or replaced after it lapsed), so forgetting it needs no lookup.
   */
  id: number
  /** When its window ends, in ms since the store was created (a small integer). */
  expiresAt: number
  /** The expiry bucket that owns it and will uncharge it, or IN_FLIGHT, RELEASED, UNCHARGED. */
  bucket: number
  reply: StoredReply | undefined
  /**
   * Bytes charged to the budget for it: its key, its reply (or the reserve for one) and the rest.
   * Kept, so that forgetting it reads neither its key's characters nor its reply again: the entries
   * forgotten are the oldest, out of the CPU's caches (~1 µs a delivery in a busy server).
   */
  charged: number
}

// What owns an entry, in its `bucket`: an expiry bucket (its index, from 1), or the queue of claims
// while it is in flight or once released (uncharged when the queue reaches it); -1 once uncharged.
export const IN_FLIGHT = 0
export const RELEASED = -2
export const UNCHARGED = -1
/** The `id` of an entry the Map no longer holds. Claims are numbered from 1. */
export const GONE = 0
