import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Fingerprint, FingerprintRing, fingerprintOf } from './fingerprints.js'

const seeds = Uint32Array.of(0x9e3779b9, 0x7f4a7c15)
const of = (key: string): Fingerprint => fingerprintOf(key, seeds, { high: 0, low: 0 })

describe('fingerprintOf', () => {
  it('gives a key one fingerprint, other keys and other seeds others', () => {
    expect(of('v2:["gesture","a"]')).toEqual(of('v2:["gesture","a"]'))
    expect(of('v2:["gesture","a"]')).not.toEqual(of('v2:["gesture","b"]'))
    expect(fingerprintOf('k', Uint32Array.of(1, 2), { high: 0, low: 0 })).not.toEqual(of('k'))
  })

  it('spreads 200,000 keys differing in one character over distinct 64-bit values', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 200_000; i++) {
      const { high, low } = of(`v2:["gesture","app","user","2026-11-22T10:00:${i}Z"]`)
      seen.add(`${high}:${low}`)
    }
    expect(seen.size).toBe(200_000)
  })
})

type Op = { op: 'add'; key: number; until: number } | { op: 'forget' } | { op: 'sweep'; second: number; limit: number }

describe('FingerprintRing', () => {
  it('holds what a plain list of the same adds and forgets holds, through growth and wrap-around', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ op: fc.constant('add' as const), key: fc.nat(3000), until: fc.nat(20) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('forget' as const) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('sweep' as const), second: fc.nat(20), limit: fc.nat(50) }) },
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), fc.integer({ min: 1, max: 2500 }), (ops, capacity) => {
        const ring = new FingerprintRing(capacity)
        // The model: the fingerprints held, oldest first.
        const model: { key: number; until: number }[] = []
        for (const step of ops) {
          if (step.op === 'add') {
            if (model.length === capacity) model.shift()
            model.push(step)
            ring.add(of(`k${step.key}`), step.until)
          } else if (step.op === 'forget') {
            model.shift()
            ring.forgetOldest()
          } else {
            for (let left = step.limit; left > 0 && model.length > 0 && (model[0]?.until ?? 0) <= step.second; left--)
              model.shift()
            ring.sweep(step.second, step.limit)
          }
          expect(ring.size).toBe(model.length)
        }
        expect(ring.bytes).toBeLessThanOrEqual(capacity * 18 + 1024 * 18)
        for (const second of [0, 10]) {
          for (let key = 0; key < 3000; key += 7) {
            const held = model.some((entry) => entry.key === key && entry.until > second)
            expect(ring.has(of(`k${key}`), second)).toBe(held)
          }
        }
      }),
      { numRuns: 60 },
    )
  })

  it('holds its capacity and no more: the oldest goes first', () => {
    const ring = new FingerprintRing(3)
    for (const key of ['a', 'b', 'c', 'd']) ring.add(of(key), 10)
    expect([ring.size, ring.full]).toEqual([3, true])
    expect(['a', 'b', 'c', 'd'].map((key) => ring.has(of(key), 0))).toEqual([false, true, true, true])
    expect(ring.oldestUntil()).toBe(10)
  })
})
