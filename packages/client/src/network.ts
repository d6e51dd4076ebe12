/**
 * Error codes that mean the connection was never made, so not a byte of the request reached
 * the service: refused, unresolvable host, unreachable network, connect timeout.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** The `code`s found in an error, its causes and (for happy-eyeballs failures) its aggregated errors. */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (depth > 4 || typeof error !== 'object' || error === null) return []
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown }
  const own = typeof record.code === 'string' ? [record.code] : []
  const nested = Array.isArray(record.errors) ? record.errors : []
  return [...own, ...errorCodes(record.cause, depth + 1), ...nested.flatMap((e) => errorCodes(e, depth + 1))]
}

/**
 * Whether a fetch failure proves the request never left. Unknown failures (a custom fetch,
 * a reset mid-request) count as "maybe sent": a trigger is not resent after them.
 */
export function provablyNotSent(error: unknown): boolean {
  const codes = errorCodes(error)
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code))
}

/** A short description of a fetch failure for messages; no URLs with secrets are ever built. */
export function describeFailure(error: unknown): string {
  const codes = errorCodes(error)
  const message = error instanceof Error ? error.message : String(error)
  return codes.length > 0 ? `${message} (${[...new Set(codes)].join(', ')})` : message
}
