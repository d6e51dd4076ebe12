/** Where a command writes: stdout for results, stderr for notes and errors. */
export interface Io {
  out(text: string): void
  err(text: string): void
}

/** Exit codes of every command. */
export const EXIT = Object.freeze({
  ok: 0,
  /** The receiver answered, but not with a 2xx, or its vibe reply breaks the trigger rules. */
  rejected: 1,
  /** A mistake in the command line. */
  usage: 2,
  /** Nothing answered (connection refused, timeout), or the simulator could not start. */
  unreachable: 3,
})

/** A mistake in the command line; the message says how to fix it. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** `--help` / `-h`, accepted by every command. */
export const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const

/** Runs node:util parseArgs; unknown flags and missing values become a UsageError. */
export function parse<T>(parseArgsCall: () => T): T {
  try {
    return parseArgsCall()
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** A value as a shell word, single-quoted when it needs to be. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}

export function parseJson(text: string, flag: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${(error as Error).message}`)
  }
}

export function parseNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${flag} must be a number >= 0, got "${text}"`)
  return value
}
