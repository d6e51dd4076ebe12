import { parseArgs } from 'node:util'

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
const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const

/** A command's flags: each one given once at most, so its value is one string or boolean. */
export type Flags = Record<string, { type: 'string' | 'boolean'; short?: string }>

/** What a command line with these flags parses to. */
export interface Parsed<F extends Flags> {
  values: { [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string }
  positionals: string[]
}

/**
 * A command's arguments through node:util parseArgs, with `--help` added: null when the help was
 * printed, and unknown flags or missing values become a UsageError.
 */
export function parseCommand<const F extends Flags>(args: string[], flags: F, help: string, io: Io): Parsed<F> | null {
  let parsed: Parsed<F & typeof HELP_FLAG>
  try {
    parsed = parseArgs({ args, options: { ...flags, ...HELP_FLAG }, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  if (parsed.values.help) {
    io.out(help)
    return null
  }
  return parsed
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
