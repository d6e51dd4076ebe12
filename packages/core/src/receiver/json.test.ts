import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeJson } from './json.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('decodeJson', () => {
  it('drops __proto__ keys at every depth and keeps everything else', () => {
    const result = decodeJson(bytes('{"a":1,"__proto__":{"x":1},"b":{"c":[{"__proto__":{"y":2},"d":3}]}}'))
    expect(result).toEqual({ ok: true, value: { a: 1, b: { c: [{ d: 3 }] } } })
    if (result.ok) expect(JSON.stringify(result.value)).not.toContain('__proto__')
  })

  it('drops __proto__ keys written with JSON escapes, any characters escaped, in either case', () => {
    const escaped = (char: string, upper: boolean) => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0')
      return `\\u${upper ? hex.toUpperCase() : hex}`
    }
    const spelling = fc
      .array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 9, maxLength: 9 })
      .map((choices) =>
        [...'__proto__'].map((char, i) => (choices[i]?.[0] ? escaped(char, !!choices[i]?.[1]) : char)).join(''),
      )
    fc.assert(
      fc.property(spelling, (key) => {
        const result = decodeJson(bytes(`{"a":1,"${key}":{"polluted":true},"b":{"${key}":{"x":1}}}`))
        expect(result).toEqual({ ok: true, value: { a: 1, b: {} } })
      }),
    )
    expect(decodeJson(bytes('{"\\u005f_proto__":{"isAdmin":true}}'))).toEqual({ ok: true, value: {} })
  })

  it('keeps a "__proto__" that is only a string value', () => {
    expect(decodeJson(bytes('{"note":"__proto__"}'))).toEqual({ ok: true, value: { note: '__proto__' } })
  })

  it('walks input nested far deeper than the call stack allows', () => {
    const depth = 100_000
    const text = `${'{"a":'.repeat(depth)}{"__proto__":1}${'}'.repeat(depth)}`
    const result = decodeJson(bytes(text))
    expect(result.ok).toBe(true)
  })

  it('rejects invalid UTF-8 and invalid JSON', () => {
    expect(decodeJson(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ ok: false })
    expect(decodeJson(bytes('{"a":'))).toEqual({ ok: false })
  })
})
