import { sha256Hex } from '../crypto/sha256.js'

/** What to do with personal fields: replace each value by a salted digest, or remove the field. */
export type PersonalAction = 'hash' | 'drop'

/** Which fields hold personal data, and what the capture does with them. */
export interface PersonalFields {
  /** Field names, matched at any depth of the payload. Default `['external_user_id']`. */
  fields: readonly string[]
  /** `'hash'` (default): `sha256:` and the hex SHA-256 of the salt and the value; `'drop'`: removed. */
  action: PersonalAction
}

/**
 * Whether a body may hold a personal field: it names one, or it has escapes (`"external\\u005fuser_id"`
 * is the same key once parsed). Most bodies do neither, and are not walked.
 */
export const mayHoldPersonal = (text: string, personal: PersonalFields): boolean =>
  text.includes('\\u') || personal.fields.some((field) => text.includes(field))

/**
 * A parsed body without its personal fields (hashed or dropped), as JSON text, or `undefined` when
 * it holds none. Only the objects on the way to a changed field are copied: the value itself (the
 * event the receiver parsed, which handlers may still hold) is left as it is.
 */
export function removePersonal(value: unknown, personal: PersonalFields, salt: string): string | undefined {
  const changed = without(value, new Set(personal.fields), personal.action, salt)
  return changed === value ? undefined : JSON.stringify(changed)
}

/** The value with the fields removed or hashed: the same value when none is in it, otherwise a copy. */
function without(value: unknown, names: ReadonlySet<string>, action: PersonalAction, salt: string): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const items = value.map((item) => without(item, names, action, salt))
    return items.some((item, index) => item !== value[index]) ? items : value
  }
  let copy: Record<string, unknown> | undefined
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const next = names.has(key)
      ? action === 'drop'
        ? DROPPED
        : hashValue(record[key], salt)
      : without(record[key], names, action, salt)
    if (next === record[key]) continue
    copy ??= { ...record }
    if (next === DROPPED) delete copy[key]
    else copy[key] = next
  }
  return copy ?? value
}

const DROPPED = Symbol('dropped')

/**
 * Digests of values seen lately, by what was hashed. A user's deliveries repeat their id, and the
 * SHA-256 was about a sixth of a record's cost (bench/HISTORY.md, 2026-11-26). Emptied when full,
 * so it holds at most RECENT_DIGESTS values, in this process only.
 */
const recentDigests = new Map<string, string>()
const RECENT_DIGESTS = 1024

/** The salted digest of a value: the same value and salt always give the same digest, so records still group by it. */
export function hashValue(value: unknown, salt: string): string {
  const input = `${salt}${JSON.stringify(value)}`
  let digest = recentDigests.get(input)
  if (digest === undefined) {
    if (recentDigests.size >= RECENT_DIGESTS) recentDigests.clear()
    digest = `sha256:${sha256Hex(input)}`
    recentDigests.set(input, digest)
  }
  return digest
}
