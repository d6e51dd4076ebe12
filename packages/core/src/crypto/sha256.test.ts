import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Hex, sha256HexPortable } from './sha256.js'

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vectors in both implementations', () => {
    const vectors: Array<[string, string]> = [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      [
        'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      ],
    ]
    for (const [text, digest] of vectors) {
      expect(sha256Hex(text)).toBe(digest)
      expect(sha256HexPortable(text)).toBe(digest)
    }
  })

  it('gives the digest node:crypto gives, for any text and around every block boundary', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 100 }),
      fc.integer({ min: 50, max: 140 }).map((n) => 'x'.repeat(n)),
    )
    fc.assert(
      fc.property(text, (t) => {
        expect(sha256HexPortable(t)).toBe(reference(t))
      }),
      { numRuns: 400 },
    )
    expect(sha256HexPortable('é'.repeat(70_000))).toBe(reference('é'.repeat(70_000)))
  })
})
