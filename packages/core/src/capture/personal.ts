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

/** A body with its personal fields hashed or dropped, or `undefined` when it holds none. */
export function removePersonal(text: string, personal: PersonalFields, salt: string): string | undefined {
  // Most bodies hold none of the names: no parse for them.
  if (!personal.fields.some((field) => text.includes(`"${field}"`))) return undefined
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined // not JSON: nothing parsed to find fields in (and a name could still be escaped)
  }
  const names = new Set(personal.fields)
  const changed = walk(json, names, personal.action, salt)
  return changed ? JSON.stringify(json) : undefined
}

function walk(value: unknown, names: ReadonlySet<string>, action: PersonalAction, salt: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  let changed = false
  if (Array.isArray(value)) {
    for (const item of value) changed = walk(item, names, action, salt) || changed
    return changed
  }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (names.has(key)) {
      if (action === 'drop') delete record[key]
      else record[key] = hashValue(record[key], salt)
      changed = true
    } else {
      changed = walk(record[key], names, action, salt) || changed
    }
  }
  return changed
}

/** The salted digest of a value: the same value and salt always give the same digest, so records still group by it. */
export const hashValue = (value: unknown, salt: string): string =>
  `sha256:${sha256Hex(`${salt}${JSON.stringify(value)}`)}`
