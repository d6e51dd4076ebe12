// The memory store's guarantee, attacked: no key is claimed twice inside its ttl, under any
// interleaving, and the memory it holds stays under its budget. By volume (a million deliveries,
// weighed after a full collection): memory-store.weighed.long.test.ts, in `pnpm test:long`.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.js'
import { createMemoryStore, DEFAULT_MEMORY_STORE_BYTES, FORGOTTEN_REPLY } from './memory-store.js'
import type { StoredReply } from './store.js'

describe('the memory store by default', () => {
  it('holds at least 50,000 deliveries with 150-character keys and their replies by default', () => {
    const store = createMemoryStore({ now: () => 0, logger: silentLogger })
    for (let i = 0; i < 50_000; i++) {
      const key = `${i}`.padEnd(150, 'x')
      const claim = store.claim(key, 15_000)
      if (claim.state !== 'claimed') throw new Error(`delivery ${i} answered ${claim.state}`)
      store.complete(key, claim.token, ACK, 15 * 60_000)
    }
    expect([store.size, store.fingerprints]).toEqual([50_000, 0])
    expect(store.bytes).toBeLessThanOrEqual(DEFAULT_MEMORY_STORE_BYTES)
  })
})

const ACK: StoredReply = Object.freeze({ status: 200, body: '{"ok":true}' })

const vibeBody = (message: string) => JSON.stringify({ success: true, vibe: { sequence: [{ type: 'tap' }], message } })

type Op =
  | { op: 'claim'; key: number; ttl: number }
  | { op: 'complete'; key: number; stale: boolean; ttl: number; long: boolean }
  | { op: 'release'; key: number; stale: boolean }
  | { op: 'advance'; ms: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('claim' as const), key: fc.nat(5), ttl: fc.constantFrom(1, 50, 1000, 5000) }),
  fc.record({
    op: fc.constant('complete' as const),
    key: fc.nat(5),
    stale: fc.boolean(),
    ttl: fc.constantFrom(1, 999, 1000, 60_000),
    long: fc.boolean(),
  }),
  fc.record({ op: fc.constant('release' as const), key: fc.nat(5), stale: fc.boolean() }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 10, 499, 1000, 1001, 30_000) }),
)

interface Held {
  until: number
  token: string
  reply: StoredReply | undefined
}

describe('the memory store, under any interleaving', () => {
  it("never grants a key inside its ttl twice with whenFull: 'refuse', answers what it holds, and stays within budget", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.constantFrom(16 * 1024, 24 * 1024), (ops, maxBytes) => {
        let now = 1_000_000
        // Refusing, not shortening: then no key inside its ttl may ever be granted twice.
        const store = createMemoryStore({ maxBytes, now: () => now, whenFull: 'refuse', logger: silentLogger })
        // The model: what each key must still be, and until when.
        const model = new Map<number, Held>()
        const stale = new Map<number, string>()
        const held = (key: number) => {
          const entry = model.get(key)
          return entry && entry.until > now ? entry : undefined
        }
        for (const step of ops) {
          if (step.op === 'advance') now += step.ms
          else if (step.op === 'claim') {
            const claim = store.claim(`k${step.key}`, step.ttl)
            const expected = held(step.key)
            if (!expected) expect(['claimed', 'full']).toContain(claim.state)
            else if (expected.reply) {
              // Its reply, or the acknowledgement once the reply was let go for its fingerprint.
              expect(claim.state).toBe('completed')
              if (claim.state === 'completed') expect([expected.reply, FORGOTTEN_REPLY]).toContainEqual(claim.reply)
            } else expect(claim).toEqual({ state: 'in_flight' })
            if (claim.state === 'claimed') {
              const previous = model.get(step.key)
              if (previous) stale.set(step.key, previous.token)
              model.set(step.key, { until: now + step.ttl, token: claim.token, reply: undefined })
            }
          } else {
            const entry = held(step.key)
            const token = step.stale ? (stale.get(step.key) ?? 'm0') : (model.get(step.key)?.token ?? 'm0')
            const owns = entry !== undefined && entry.token === token
            if (step.op === 'release') {
              store.release(`k${step.key}`, token)
              if (owns) model.delete(step.key)
            } else {
              const reply = { status: 200, body: step.long ? vibeBody('é'.repeat(80)) : '{"ok":true}' }
              store.complete(`k${step.key}`, token, reply, step.ttl)
              if (owns) model.set(step.key, { ...entry, until: now + step.ttl, reply })
            }
          }
          expect(store.bytes).toBeLessThanOrEqual(maxBytes)
        }
      }),
      { numRuns: 500 },
    )
  })
})
