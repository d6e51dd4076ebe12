import type { StoredReply } from './store.js'

// What one remembered delivery costs the heap, in bytes, as the memory store charges it against
// its budget. Each figure bounds from above what V8 (Node 20, 64-bit) was measured to use, so
// that the budget bounds the real heap: memory-store.weighed.long.test.ts fills a store and weighs it after a
// full GC, in the worst case for each part.

/**
 * Per entry, beside its key's characters and its reply: the entry object (72: six fields), its share of the
 * Map, which holds up to 4 slots per entry before it shrinks (112), its references in the queue of
 * claims and the expiry buckets, with the arrays' spare room (24), the key's string header with its
 * rounding to a word (24), and, for a key built by concatenation, the node V8 may keep in front of
 * its flattened text (32). Whether it keeps that node depends on when the young generation was
 * collected: the budget test's worst case (a Map a quarter full) came 5 bytes an entry over the 248
 * charged when both were counted as one 40.
 */
export const ENTRY_BYTES = 264

/** A stored reply's object, beside its body. */
const REPLY_OBJECT_BYTES = 48

/** V8's header of a flat string, and rounding up to a whole word. */
const STRING_HEADER_BYTES = 24

/**
 * Held for the reply while a delivery is in flight: the largest reply the receiver stores (a
 * gesture's vibe: three steps and an 80-character message, every character escaped) fits.
 */
export const REPLY_RESERVE_BYTES = REPLY_OBJECT_BYTES + STRING_HEADER_BYTES + 2 * 1024

// V8 stores Latin-1 text one byte per character, anything else two.
const TWO_BYTE = /[\u0100-\uffff]/

/** Heap bytes of a string's characters. */
export const characterBytes = (text: string): number => (TWO_BYTE.test(text) ? 2 * text.length : text.length)

/** Heap bytes of a stored reply: its object and its body. */
export const replyBytes = (reply: StoredReply): number =>
  REPLY_OBJECT_BYTES + STRING_HEADER_BYTES + characterBytes(reply.body)
