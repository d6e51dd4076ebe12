/**
 * JSON text of `value` with every object's keys sorted (by UTF-16 code unit, as `Array.sort` does),
 * so that two payloads holding the same values spell the same text whatever order their fields
 * came in. Arrays keep their order. What JSON cannot hold (`undefined`, functions) is left out of an
 * object and written `null` in an array, as `JSON.stringify` does; a parsed payload holds none.
 * `{ b: 1, a: [2, { d: 3, c: 4 }] }` is written `{"a":[2,{"c":4,"d":3}],"b":1}`.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null'
}

function write(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value) as string | undefined
  const record = value as Record<string, unknown>
  const fields: string[] = []
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key])
    if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`)
  }
  return `{${fields.join(',')}}`
}
