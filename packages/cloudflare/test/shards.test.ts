import { RinghookConfigError } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { shardCount, shardOf } from '../src/shards.js'

describe('shardOf', () => {
  it('spreads delivery keys evenly: every shard within 15 % of its share', () => {
    const counts = new Array<number>(16).fill(0)
    for (let i = 0; i < 32_000; i++) {
      const key = `v2:["gesture","app_demo","u-${i % 977}","2026-11-28T10:00:${String(i % 60).padStart(2, '0')}.${i}Z"]`
      counts[shardOf(key, 16)] = (counts[shardOf(key, 16)] ?? 0) + 1
    }
    for (const count of counts) expect(Math.abs(count - 2_000)).toBeLessThan(300)
  })

  it('names a key by the same shard every time, and keeps to the range', () => {
    for (const key of ['', 'a\u0000b', '\ud800', 'Grüße 🛎️', 'k'.repeat(2048)]) {
      expect(shardOf(key, 7)).toBe(shardOf(key, 7))
      expect(shardOf(key, 7)).toBeGreaterThanOrEqual(0)
      expect(shardOf(key, 7)).toBeLessThan(7)
      expect(shardOf(key, 1)).toBe(0)
    }
  })
})

describe('shardCount', () => {
  it('takes 1 to 1,024, 16 by default, and refuses anything else with a clear error', () => {
    expect(shardCount(undefined, 'test')).toBe(16)
    expect(shardCount(1, 'test')).toBe(1)
    expect(shardCount(1024, 'test')).toBe(1024)
    for (const bad of [0, -1, 1.5, 1025, Number.NaN])
      expect(() => shardCount(bad, 'createDurableStore')).toThrow(RinghookConfigError)
  })
})
