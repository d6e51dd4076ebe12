import * as crypto from 'node:crypto'

type OneShot = (algorithm: string, data: string, encoding: 'hex') => string

// `crypto.hash` (Node 20.12+, Bun, Deno) skips the Hash object `createHash` makes per call.
const oneShot = (crypto as { hash?: OneShot }).hash
const sha256Hex = oneShot
  ? (text: string) => oneShot('sha256', text, 'hex')
  : (text: string) => crypto.createHash('sha256').update(text).digest('hex')

/**
 * The first 16 hex digits of the SHA-256 of a dedup key: the same for a delivery and each of its
 * retries and duplicates, so their spans can be found together, without the key itself, which is
 * made of the payload's ids (app, user, event). A pseudonym, not anonymity: whoever can guess every
 * field of a key can check the guess.
 */
export const keyHash = (key: string): string => sha256Hex(key).slice(0, 16)
