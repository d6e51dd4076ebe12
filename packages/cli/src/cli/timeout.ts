import { UsageError } from './io.js'

/** The environment variable every command that calls a server reads its timeout from. */
export const TIMEOUT_ENV = 'RINGHOOK_TIMEOUT_MS'

/** How long a command waits for a server by default: the service's own limit. */
export const DEFAULT_TIMEOUT_MS = 30_000

/** The `--timeout` flag, the same for every command that calls a server. */
export const TIMEOUT_FLAG = { timeout: { type: 'string' } } as const

/** Its line in a command's help. */
export const TIMEOUT_HELP = `  --timeout <ms>             give up on a server that does not answer after this long;
                             default $${TIMEOUT_ENV}, else ${DEFAULT_TIMEOUT_MS} (the service's limit)`

/** The timeout a command uses: `--timeout`, else the environment's, else 30 s. */
export function timeoutFrom(flag: string | undefined): number {
  const [text, name] = flag !== undefined ? [flag, '--timeout'] : [process.env[TIMEOUT_ENV], TIMEOUT_ENV]
  if (text === undefined || text === '') return DEFAULT_TIMEOUT_MS
  const value = Number(text)
  // AbortSignal.timeout takes up to 2^32-1 ms; a timer past 2^31-1 would fire at once.
  if (!Number.isInteger(value) || value <= 0 || value > 2 ** 31 - 1)
    throw new UsageError(`${name} takes milliseconds, a whole number from 1 to ${2 ** 31 - 1}; got "${text}".`)
  return value
}

/** A server that did not answer within the timeout; named `TimeoutError`, as `AbortSignal.timeout` does. */
export class NoAnswerInTime extends Error {
  override readonly name = 'TimeoutError'
  constructor(readonly timeoutMs: number) {
    super(timedOut(timeoutMs))
  }
}

/** What a command says when it gave up waiting. */
export function timedOut(timeoutMs: number): string {
  return `no answer within ${timeoutMs} ms (the timeout: --timeout or ${TIMEOUT_ENV})`
}
