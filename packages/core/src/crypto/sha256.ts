import { builtin } from './builtin.js'
import { toHex } from './bytes.js'

interface NodeHashing {
  createHash(algorithm: 'sha256'): { update(input: string | Uint8Array): { digest(encoding: 'hex'): string } }
  /** One-shot digest, Node >= 20.12. */
  hash?(algorithm: 'sha256', input: string | Uint8Array, encoding: 'hex'): string
}

const encoder = new TextEncoder()

/** Bun's native hasher, a global: no module to load (`Bun.CryptoHasher.hash`). */
interface BunHashing {
  hash(algorithm: 'sha256', input: string | Uint8Array, encoding: 'hex'): string
}

/**
 * Lowercase hex SHA-256 of a string's UTF-8 bytes, synchronously on every runtime: node:crypto
 * on Node, Bun's native hasher on Bun, otherwise the FIPS 180-4 algorithm below (Web Crypto only
 * hashes asynchronously). All give the same digest, so instances on different runtimes agree
 * (test/runtimes holds a dedup key computed on Bun and on Deno to the one Node computes).
 */
export function sha256Hex(text: string): string {
  selected ??= pick()
  return selected(text)
}

/** Lowercase hex SHA-256 of bytes, as {@link sha256Hex} computes it (a capture's digest of a body it cut). */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  selected ??= pick()
  return selected(bytes)
}

let selected: ((input: string | Uint8Array) => string) | undefined

function pick(): (input: string | Uint8Array) => string {
  // The algorithm below, run cold by Bun's interpreter, took 1.1–1.9 ms of a cold start's first
  // gesture (its dedup key) and 0.3–0.5 ms the next; Bun's own hasher 0.1 ms, then 4 µs.
  const bun = (globalThis as { Bun?: { CryptoHasher?: Partial<BunHashing> } }).Bun?.CryptoHasher
  if (typeof bun?.hash === 'function') {
    const { hash } = bun as BunHashing
    return (input) => hash('sha256', input, 'hex')
  }
  const node = builtin<NodeHashing>('node:crypto', 'createHash')
  if (!node) return sha256HexPortable
  // The one-shot call makes no Hash object: 0.83 against 2.12 µs a short string on Node 20 (the
  // capture hashes a personal field per record, the dedup key a payload's data).
  const { hash } = node
  if (typeof hash === 'function') return (input) => hash('sha256', input, 'hex')
  return (input) => node.createHash('sha256').update(input).digest('hex')
}

// First 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

/** SHA-256 in plain JavaScript (FIPS 180-4), for runtimes without node:crypto. Exported for its test. */
export function sha256HexPortable(input: string | Uint8Array): string {
  const data = typeof input === 'string' ? encoder.encode(input) : input
  // The message, a 1 bit, zeros, then its length in bits as 64 bits: a whole number of 64-byte blocks.
  const blocks = Math.ceil((data.length + 9) / 64)
  const padded = new Uint8Array(blocks * 64)
  padded.set(data)
  padded[data.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000))
  view.setUint32(padded.length - 4, data.length * 8)
  const h = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ])
  const w = new Uint32Array(64)
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15] as number
      const b = w[i - 2] as number
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10)
      w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const t1 =
        (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h[0] = (h[0] as number) + a
    h[1] = (h[1] as number) + b
    h[2] = (h[2] as number) + c
    h[3] = (h[3] as number) + d
    h[4] = (h[4] as number) + e
    h[5] = (h[5] as number) + f
    h[6] = (h[6] as number) + g
    h[7] = (h[7] as number) + hh
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i] as number)
  return toHex(out)
}
