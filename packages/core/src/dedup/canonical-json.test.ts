import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './canonical-json.js'

/** `value` with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = Object.create(null)
  for (const key of Object.keys(value).reverse()) out[key] = reversed((value as Record<string, unknown>)[key])
  return out
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}')
    expect(canonicalJson({ x: undefined, y: [undefined] })).toBe('{"y":[null]}')
  })

  it('spells equal values alike whatever their key order, and reads back as the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        expect(canonicalJson(reversed(value))).toBe(text)
        expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(text)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      }),
      { numRuns: 500 },
    )
  })

  it('spells different values differently', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        // As JSON holds them: -0 and 0 are one number in JSON text.
        const equal = isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))
        expect(canonicalJson(a) === canonicalJson(b)).toBe(equal)
      }),
      { numRuns: 300 },
    )
  })
})

describe('canonicalJson on deep values', () => {
  it('writes values nested deeper than the call stack allows', () => {
    const depth = 100_000
    const deep = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown
    expect(canonicalJson(deep)).toBe(`${'['.repeat(depth)}${']'.repeat(depth)}`)
    const objects = JSON.parse(`${'{"b":1,"a":'.repeat(20_000)}0${'}'.repeat(20_000)}`) as unknown
    expect(canonicalJson(objects)).toBe(`${'{"a":'.repeat(20_000)}0${',"b":1}'.repeat(20_000)}`)
  })
})
