// Child process of memory-store.weighed.long.test.ts: fills a memory store as one named case says, and
// prints, as one JSON line, what the store charged and what a full collection freed once it was let
// go. Run as `node --import tsx --expose-gc --no-concurrent-recompilation memory-store-child.ts <case>`:
// without the last flag, V8's background compile jobs kept the store's closures (and everything they
// hold) alive through gc() on a loaded machine, and a weighing read nothing freed.
import {
  createMemoryStore,
  FORGET_PER_CLAIM,
  FORGOTTEN_REPLY,
  type MemoryStore,
  type MemoryStoreOptions,
} from '../../src/dedup/memory-store.js'
import type { StoredReply } from '../../src/dedup/store.js'
import { silentLogger } from '../../src/logger.js'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const ACK: StoredReply = Object.freeze({ status: 200, body: '{"ok":true}' })
const SECOND = 1000
const IN_FLIGHT_TTL_MS = 15 * SECOND
const COMPLETED_TTL_MS = 15 * 60 * SECOND

/** What a case reports: what it weighed and what it saw. */
export interface Weighing {
  /** Bytes (heap and array buffers) a full collection freed once the store was let go. */
  freed: number
  /** What the store charged to its budget just before. */
  charged: number
  /** The store's budget. */
  maxBytes: number
  /** Facts the case observed, for the test to check. */
  seen: Record<string, unknown>
}

/** Heap and array buffers in use after a full collection. */
function inUse(): number {
  gc?.()
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

const KEY_HEAD = 'v2:["gesture","app_8kq2m4x7","6f1c1f5e-9a3b-4c55-8f0e-'
const KEY_TAIL = '","2026-11-22T10:00:00.000Z","double_tap","9b5c0e3a41d27f86c3e1b0a95d4f7e12"]'

/** A key shaped and sized like a default gesture key (143 characters), distinct per `i`. */
const gestureKey = (i: number) => `${KEY_HEAD}${i.toString(16).padStart(12, '0')}${KEY_TAIL}`

const vibeBody = (message: string) => JSON.stringify({ success: true, vibe: { sequence: [{ type: 'tap' }], message } })

type Clock = { now: number }

function deliver(store: MemoryStore, key: string, reply: StoredReply, ttlMs = COMPLETED_TTL_MS): void {
  const claim = store.claim(key, IN_FLIGHT_TTL_MS)
  if (claim.state !== 'claimed') throw new Error(`${key} answered ${claim.state}`)
  store.complete(key, claim.token, reply, ttlMs)
}

const state = (store: MemoryStore, key: string): string => {
  const claim = store.claim(key, IN_FLIGHT_TTL_MS)
  if (claim.state !== 'completed') return claim.state
  return claim.reply === FORGOTTEN_REPLY ? 'fingerprint' : 'reply'
}

function store(clock: Clock, options: MemoryStoreOptions = {}): MemoryStore {
  return createMemoryStore({ now: () => clock.now, logger: silentLogger, ...options })
}

/** The cases: each fills a store and reports what it saw. */
const cases: Record<string, (seen: Record<string, unknown>) => MemoryStore> = {
  // 110 deliveries a second for 2.5 hours, default budget: 99,000 inside the 15-minute window.
  steady(seen) {
    const clock = { now: 0 }
    const s = store(clock)
    const perSecond = 110
    const total = 1_000_000
    let peak = 0
    for (let i = 0; i < total; i++) {
      if (i % perSecond === 0) {
        clock.now += SECOND
        peak = Math.max(peak, s.bytes)
      }
      deliver(s, gestureKey(i), ACK)
    }
    seen.peak = peak
    seen.size = s.size
    seen.fingerprints = s.fingerprints
    seen.oneMinute = state(s, gestureKey(total - 60 * perSecond))
    seen.fourteenMinutes = state(s, gestureKey(total - 14 * 60 * perSecond))
    seen.sixteenMinutes = state(s, gestureKey(total - 16 * 60 * perSecond))
    return s
  },
  // 1,000,000 distinct deliveries in one burst (a thousand a millisecond), default budget, refusing
  // rather than shortening: every one must be held, most by fingerprint.
  burst(seen) {
    const clock = { now: 0 }
    const s = store(clock, { whenFull: 'refuse' })
    const total = 1_000_000
    for (let i = 0; i < total; i++) {
      if (i % 1000 === 0) clock.now += 1
      deliver(s, gestureKey(i), ACK)
    }
    let recognised = 0
    for (let i = 0; i < total; i += 1009) if (state(s, gestureKey(i)) !== 'claimed') recognised += 1
    seen.sampled = Math.ceil(total / 1009)
    seen.recognised = recognised
    seen.size = s.size
    seen.fingerprints = s.fingerprints
    seen.bytes = s.bytes
    return s
  },
  // The acknowledgement for each, just inside the reply horizon, the Map just grown.
  ack: (seen) => filled(seen, 131_100, () => ACK),
  // A distinct vibe each.
  vibes: (seen) => filled(seen, 100_000, (i) => ({ status: 200, body: vibeBody(`Got double_tap ${i}`) })),
  // Three quarters completed with a 1 s ttl and forgotten, the Map not shrunk yet.
  quarter(seen) {
    const clock = { now: 0 }
    const s = store(clock, { maxBytes: 256 * 1024 * 1024 })
    const count = 131_100
    for (let i = 0; i < count; i++) deliver(s, gestureKey(i), ACK, i % 4 !== 0 ? SECOND : COMPLETED_TTL_MS)
    clock.now += IN_FLIGHT_TTL_MS + SECOND
    for (let i = 0; i <= count / FORGET_PER_CLAIM; i++) s.claim('sweep', IN_FLIGHT_TTL_MS)
    seen.size = s.size
    return s
  },
  // Past the horizon: every reply let go for a fingerprint, the Map emptied.
  prints(seen) {
    const clock = { now: 0 }
    const s = store(clock, { maxBytes: 256 * 1024 * 1024 })
    const count = Number(process.env.WEIGH_COUNT ?? 500_000)
    for (let i = 0; i < count; i++) deliver(s, gestureKey(i), ACK)
    clock.now += 151 * SECOND
    for (let i = 0; i <= count / FORGET_PER_CLAIM; i++) s.claim('sweep', IN_FLIGHT_TTL_MS)
    seen.size = s.size
    seen.fingerprints = s.fingerprints
    return s
  },
}

function filled(seen: Record<string, unknown>, count: number, replyFor: (i: number) => StoredReply): MemoryStore {
  const s = store({ now: 0 }, { maxBytes: 256 * 1024 * 1024 })
  for (let i = 0; i < count; i++) deliver(s, gestureKey(i), replyFor(i))
  seen.size = s.size
  return s
}

/**
 * What the store freed: in use with it, minus in use once let go. Not the growth since it was made,
 * which also counts what the process kept meanwhile (compiled code), up to ~0.9 MB.
 */
function weigh(name: string): Weighing {
  const fill = cases[name]
  if (!fill) throw new Error(`no case ${name}`)
  const holder: { store?: MemoryStore } = {}
  const seen: Record<string, unknown> = {}
  const { charged, maxBytes, withStore } = weighHeld(holder, () => fill(seen))
  holder.store = undefined
  return { freed: withStore - inUse(), charged, maxBytes, seen }
}

// Apart from weigh(), so that no stack slot of a frame still running holds the store once it returns.
function weighHeld(holder: { store?: MemoryStore }, fill: () => MemoryStore) {
  holder.store = fill()
  return { charged: holder.store.bytes, maxBytes: holder.store.maxBytes, withStore: inUse() }
}

process.stdout.write(`${JSON.stringify(weigh(process.argv[2] ?? ''))}\n`)
