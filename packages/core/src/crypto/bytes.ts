const encoder = new TextEncoder()

/** UTF-8 bytes of a string, or the bytes themselves: signatures cover bytes, never re-serialised JSON. */
export function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input
}

/** Lowercase hex of a byte array. */
export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

// Nibble value of each ASCII code, -1 for anything that is not a hex digit.
const NIBBLES = new Int8Array(128).fill(-1)
for (let i = 0; i < 16; i++) {
  NIBBLES['0123456789abcdef'.charCodeAt(i)] = i
  NIBBLES['0123456789ABCDEF'.charCodeAt(i)] = i
}
const nibble = (code: number): number => (code < 128 ? (NIBBLES[code] as number) : -1)

/** Bytes of an even-length hex string, or undefined when it is not hex. One table lookup per digit. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) {
    const high = nibble(hex.charCodeAt(2 * i))
    const low = nibble(hex.charCodeAt(2 * i + 1))
    if (high < 0 || low < 0) return undefined
    out[i] = (high << 4) | low
  }
  return out
}

/** Compares two byte arrays in time that depends only on their length. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}

/** Whether a string is non-empty hex, in either case. */
export function isHex(text: string): boolean {
  if (text.length === 0) return false
  for (let i = 0; i < text.length; i++) if (nibble(text.charCodeAt(i)) < 0) return false
  return true
}

/**
 * Compares hex `given` (either case, already checked with {@link isHex}) with lowercase hex
 * `expected`, in time that depends only on their length. Setting bit 0x20 lowercases A-F and
 * leaves 0-9 as they are.
 */
export function constantTimeEqualHex(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false
  let diff = 0
  for (let i = 0; i < given.length; i++) diff |= (given.charCodeAt(i) | 0x20) ^ expected.charCodeAt(i)
  return diff === 0
}
