/** Text to write as it is, beside the values still to be written. */
class Text {
  constructor(readonly text: string) {}
}

const skipped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol'

/**
 * JSON text of `value` with every object's keys sorted (by UTF-16 code unit, as `Array.sort` does),
 * so that two payloads holding the same values spell the same text whatever order their fields
 * came in. Arrays keep their order. What JSON cannot hold (`undefined`, functions) is left out of an
 * object and written `null` in an array, as `JSON.stringify` does; a parsed payload holds none.
 * `{ b: 1, a: [2, { d: 3, c: 4 }] }` is written `{"a":[2,{"c":4,"d":3}],"b":1}`.
 *
 * Written with a stack of its own rather than by recursion: a signed payload within the body limit
 * may nest 30,000 arrays deep, past what the call stack holds.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = []
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    if (next instanceof Text) out.push(next.text)
    else if (Array.isArray(next)) {
      pending.push(new Text(']'))
      for (let i = next.length - 1; i >= 0; i--) {
        pending.push(skipped(next[i]) ? null : next[i])
        if (i > 0) pending.push(new Text(','))
      }
      out.push('[')
    } else if (next !== null && typeof next === 'object') {
      const record = next as Record<string, unknown>
      const keys = Object.keys(record)
        .filter((key) => !skipped(record[key]))
        .sort()
      pending.push(new Text('}'))
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string
        pending.push(record[key], new Text(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`))
      }
      out.push('{')
    } else out.push(skipped(next) ? 'null' : (JSON.stringify(next) as string))
  }
  return out.join('')
}
