import { replyBytes } from './memory-cost.js'
import type { StoredReply } from './store.js'

/** How many distinct replies are kept once, and how long each may be. */
const MAX_SHARED = 64
const MAX_SHARED_BODY = 256

/**
 * The replies most deliveries get (the acknowledgement, an app's usual vibes), kept once: an
 * entry whose reply is one of these points at it and costs nothing more. Never emptied, so an
 * entry's cost stays what it was charged; bounded to a few dozen short replies.
 */
export class SharedReplies {
  readonly #byBody = new Map<string, StoredReply>()
  #bytes = 0

  /** Heap bytes of the replies kept here. */
  get bytes(): number {
    return this.#bytes
  }

  /** Whether `reply` is one of the kept replies. */
  holds(reply: StoredReply): boolean {
    return this.#byBody.get(reply.body) === reply
  }

  /** The kept copy of `reply`; it is kept now if it is short, there is room, and `room` bytes allow. */
  intern(reply: StoredReply, room: number): StoredReply {
    const kept = this.#byBody.get(reply.body)
    if (kept) return kept.status === reply.status ? kept : reply
    if (reply.body.length > MAX_SHARED_BODY || this.#byBody.size >= MAX_SHARED) return reply
    const copy = Object.freeze({ status: reply.status, body: reply.body })
    const cost = replyBytes(copy)
    if (cost > room) return reply
    this.#byBody.set(copy.body, copy)
    this.#bytes += cost
    return copy
  }
}
