import { createHash } from 'node:crypto'

/**
 * The first 16 hex digits of the SHA-256 of a dedup key: the same for a delivery and each of its
 * retries and duplicates, so their spans can be found together, without the key itself, which is
 * made of the payload's ids (app, user, event). A pseudonym, not anonymity: whoever can guess every
 * field of a key can check the guess.
 */
export const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 16)
