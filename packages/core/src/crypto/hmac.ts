import { builtin } from './builtin.js'
import { constantTimeEqual } from './bytes.js'

/**
 * HMAC-SHA256 over `${timestamp}.${body}` with a constant-time comparison.
 * Two engines behind one async API: node:crypto where the runtime offers it (measured
 * ~3x faster than Web Crypto on Node 20, which hops to the thread pool on every call),
 * and Web Crypto everywhere else (Workers, browsers, Deno without Node compat).
 */
export interface HmacEngine {
  /** Which engine: `node` (node:crypto) or `webcrypto`. */
  readonly name: 'node' | 'webcrypto'
  /** Digest of `${timestamp}.${body}` keyed with `secret`. */
  digest(secret: string, timestamp: string, body: Uint8Array): Promise<Uint8Array>
  /**
   * The same digest as lowercase hex, without a promise, where the runtime computes it
   * synchronously (node:crypto). Hex, because a digest handed back as a string costs a fraction
   * of one handed back as a Buffer, and the signature header is hex anyway.
   */
  hexSync?(secret: string, timestamp: string, body: Uint8Array): string
  /** Whether two digests are equal, compared in constant time. */
  equal(a: Uint8Array, b: Uint8Array): boolean
}

interface NodeCrypto {
  createHmac(algorithm: string, key: string): NodeHmac
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean
  /** One-shot hash (Node >= 20.12 / 21.7, Bun, Deno): no Hash object per call. */
  hash?(algorithm: string, data: Uint8Array, outputEncoding: 'hex' | 'latin1'): string
}

interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac
  digest(): Uint8Array
  digest(encoding: 'hex'): string
}

/** The part of Node's Buffer the one-shot HMAC uses. */
interface NodeBufferClass {
  allocUnsafe(size: number): NodeBuffer
  byteLength(text: string): number
}

interface NodeBuffer extends Uint8Array {
  write(text: string, offset: number, encoding: 'utf8' | 'latin1'): number
}

const encoder = new TextEncoder()
// Secrets are few and long-lived; a resolver serving many apps refills the cache as it goes.
const MAX_CACHED_KEYS = 64

function nodeEngine(crypto: NodeCrypto): HmacEngine {
  const buffer = builtin<{ Buffer: NodeBufferClass }>('node:buffer', 'Buffer')?.Buffer
  const oneShot = crypto.hash && buffer ? oneShotHmac(crypto.hash, buffer) : undefined
  return {
    name: 'node',
    hexSync:
      oneShot ??
      ((secret, timestamp, body) =>
        crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')),
    async digest(secret, timestamp, body) {
      return crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest()
    },
    equal: (a, b) => a.length === b.length && crypto.timingSafeEqual(a, b),
  }
}

const BLOCK = 64
const SHA256_BYTES = 32

/** A secret's HMAC pads (RFC 2104): the inner pad, and the outer pad with room for the inner digest. */
interface Pads {
  inner: Uint8Array
  outer: NodeBuffer
}

/**
 * HMAC-SHA256 as RFC 2104 defines it, over two one-shot hashes: H(K^opad || H(K^ipad || m)).
 * createHmac builds an OpenSSL context per call and its Buffer digest is costly to hand back;
 * two one-shot hashes with string output do the same work in about half the time (bench/limits.ts).
 * The pads are computed once per secret. Synchronous, so the shared outer buffer is never
 * used by two digests at once.
 */
function oneShotHmac(
  hash: NonNullable<NodeCrypto['hash']>,
  Buffer: NodeBufferClass,
): NonNullable<HmacEngine['hexSync']> {
  const pads = new Map<string, Pads>()
  const padsFor = (secret: string): Pads => {
    let found = pads.get(secret)
    if (!found) {
      if (pads.size >= MAX_CACHED_KEYS) pads.clear()
      found = makePads(secret, hash, Buffer)
      pads.set(secret, found)
    }
    return found
  }
  return (secret, timestamp, body) => {
    const { inner, outer } = padsFor(secret)
    const prefix = `${timestamp}.`
    const message = Buffer.allocUnsafe(BLOCK + Buffer.byteLength(prefix) + body.length)
    message.set(inner)
    message.set(body, BLOCK + message.write(prefix, BLOCK, 'utf8'))
    outer.write(hash('sha256', message, 'latin1'), BLOCK, 'latin1')
    return hash('sha256', outer, 'hex')
  }
}

function makePads(secret: string, hash: NonNullable<NodeCrypto['hash']>, Buffer: NodeBufferClass): Pads {
  let key: Uint8Array = encoder.encode(secret)
  // A key longer than the block is replaced by its digest, as RFC 2104 says.
  if (key.length > BLOCK) {
    const digest = Buffer.allocUnsafe(SHA256_BYTES)
    digest.write(hash('sha256', key, 'latin1'), 0, 'latin1')
    key = digest
  }
  const inner = new Uint8Array(BLOCK)
  const outer = Buffer.allocUnsafe(BLOCK + SHA256_BYTES)
  for (let i = 0; i < BLOCK; i++) {
    const byte = key[i] ?? 0
    inner[i] = byte ^ 0x36
    outer[i] = byte ^ 0x5c
  }
  return { inner, outer }
}

function webCryptoEngine(): HmacEngine {
  // Importing a key costs as much as signing; secrets are few and long-lived, so cache them.
  const keys = new Map<string, Promise<CryptoKey>>()
  const keyFor = (secret: string): Promise<CryptoKey> => {
    let key = keys.get(secret)
    if (!key) {
      if (keys.size >= MAX_CACHED_KEYS) keys.clear()
      key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ])
      keys.set(secret, key)
    }
    return key
  }
  return {
    name: 'webcrypto',
    async digest(secret, timestamp, body) {
      const prefix = encoder.encode(`${timestamp}.`)
      const message = new Uint8Array(prefix.length + body.length)
      message.set(prefix)
      message.set(body, prefix.length)
      return new Uint8Array(await crypto.subtle.sign('HMAC', await keyFor(secret), message))
    },
    equal: constantTimeEqual,
  }
}

let selected: HmacEngine | undefined

/** The engine this runtime uses: node:crypto when available, Web Crypto otherwise. */
export function hmacEngine(): HmacEngine {
  if (!selected) {
    const node = builtin<NodeCrypto>('node:crypto', 'createHmac')
    selected = node ? nodeEngine(node) : webCryptoEngine()
  }
  return selected
}

/** The Web Crypto engine, always: for tests and runtimes where node:crypto is shimmed. */
export const webCryptoHmac: HmacEngine = webCryptoEngine()
