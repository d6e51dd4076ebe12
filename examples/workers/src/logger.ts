import type { Logger } from '@ringhook/core'

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const

/**
 * One JSON line per entry on the console, in pino's shape (`level`, `time`, `msg` and the fields):
 * Workers' logs (`wrangler tail`, Logpush) keep them as they are, and `pino-pretty` reads them.
 */
export function jsonLogger(level = 'info', bindings: Record<string, unknown> = {}): Logger {
  const least = LEVELS[level as keyof typeof LEVELS] ?? LEVELS.info
  const write =
    (name: keyof typeof LEVELS): Logger['warn'] =>
    (fields, message) => {
      if (LEVELS[name] < least) return
      console.log(JSON.stringify({ level: LEVELS[name], time: Date.now(), ...bindings, ...fields, msg: message }))
    }
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => jsonLogger(level, { ...bindings, ...more }),
  }
}
