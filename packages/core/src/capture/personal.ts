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
 * The JSON text of an event with each personal field's string value replaced by its digest where it
 * stands, every other byte kept; the same text when no personal field is in it. `undefined` when the
 * text cannot be read that way, and the body must be written again from its parse
 * ({@link removePersonal}): `drop`, a `\u` escape anywhere (a key may be spelled with one), a field
 * name JSON would escape, or a personal field whose value is not a string. `text` must be valid JSON.
 *
 * Why not always the parse: copying and writing the event again cost ~24k instructions a captured
 * delivery (the bench's 250-byte event), a third of capture's own work and ~6% of a captured
 * request on node:http (~260k + capture); bench/HISTORY.md, 2026-11-27. The text keeps its bytes too.
 */
export function hashInText(text: string, personal: PersonalFields, salt: string): string | undefined {
  if (personal.action !== 'hash' || text.includes('\\u')) return undefined
  const values: Array<{ start: number; end: number }> = []
  for (const field of personal.fields) {
    if (JSON.stringify(field) !== `"${field}"`) return undefined
    const key = `"${field}"`
    for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + 1)) {
      // Inside a string, a quote follows an odd run of backslashes; there the name is content.
      if (escaped(text, at)) continue
      let i = skipSpace(text, at + key.length)
      if (text[i] !== ':') continue // the name as a value, not a key
      i = skipSpace(text, i + 1)
      if (text[i] !== '"') return undefined
      const end = stringEnd(text, i)
      values.push({ start: i, end })
      at = end
    }
  }
  if (values.length === 0) return text
  values.sort((a, b) => a.start - b.start)
  let out = ''
  let from = 0
  for (const { start, end } of values) {
    out += `${text.slice(from, start)}"${hashValue(JSON.parse(text.slice(start, end)), salt)}"`
    from = end
  }
  return out + text.slice(from)
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0
  for (let i = quote - 1; i >= 0 && text.charCodeAt(i) === 92; i--) backslashes++
  return backslashes % 2 === 1
}

/** The index after JSON whitespace from `i`. */
function skipSpace(text: string, i: number): number {
  let at = i
  for (let c = text.charCodeAt(at); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++at));
  return at
}

/** The index after the string literal that opens at `quote`. */
function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 92) i++
    else if (c === 34) return i + 1
  }
  return text.length
}

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
