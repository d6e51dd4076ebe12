/** Header names the service signs with (matched case-insensitively). */
export const SIGNATURE_HEADER = 'x-service-signature'
/** The header carrying the signed timestamp, Unix seconds (matched case-insensitively). */
export const TIMESTAMP_HEADER = 'x-service-timestamp'
/** What the signature header's value starts with, before the hex digest. */
export const SIGNATURE_PREFIX = 'sha256='

/** Headers as adapters hand them over: a Fetch `Headers` or a Node-style record. */
export type HeaderInput = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

/**
 * One header's value, case-insensitively. A header sent more than once yields every value
 * joined by ", " (as Node does), so a duplicated signature can never pick one silently.
 */
export function getHeader(headers: HeaderInput, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  let value = record[name]
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === name) {
        value = record[key]
        break
      }
    }
  }
  return Array.isArray(value) ? value.join(', ') : (value as string | undefined)
}
