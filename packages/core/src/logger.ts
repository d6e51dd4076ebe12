/** A log method in pino's shape: an object of fields, then a message. */
export type LogFn = (fields: Record<string, unknown>, message?: string) => void

/** The subset of pino's API ringhook uses; pino, bunyan-style and console wrappers all fit. */
export interface Logger {
  /** Detail for debugging. */
  debug: LogFn
  /** The normal course of things, e.g. a duplicate answered from the store. */
  info: LogFn
  /** Something refused or amiss, e.g. a forged or stale request, a risky setting. */
  warn: LogFn
  /** Something failed, e.g. a handler threw or the store did not answer. */
  error: LogFn
  /** A logger that adds `bindings` to every line. */
  child(bindings: Record<string, unknown>): Logger
}

const noop: LogFn = () => {}

/** A logger that drops everything. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => silentLogger }

/** The default: warnings and errors to the console as one line each, nothing below. */
export function consoleLogger(bindings: Record<string, unknown> = {}): Logger {
  const write =
    (level: 'warn' | 'error'): LogFn =>
    (fields, message) =>
      console[level](`[ringhook] ${message ?? ''}`, JSON.stringify({ ...bindings, ...fields }))
  return {
    debug: noop,
    info: noop,
    warn: write('warn'),
    error: write('error'),
    child: (more) => consoleLogger({ ...bindings, ...more }),
  }
}
