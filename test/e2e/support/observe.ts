import type { Logger, Receiver } from '@ringhook/core'
import type { LogFn } from '@ringhook/core/adapter'
import type { Simulator } from '@ringhook/simulator'
import type { LogEntry } from '@ringhook/simulator/control-api'

/** One handler run the test saw on an example's receiver. */
export interface Handled {
  event: string
  user_app_id: string
  /** `gesture_type` for gestures, `data.event_id` for responses. */
  detail: string | undefined
}

/**
 * Adds a catch-all handler to an example's receiver that records each event it runs for. The
 * example's own handlers run beside it, so "recorded once" means "the app handled it once".
 */
export function recordHandled(receiver: Receiver): Handled[] {
  const handled: Handled[] = []
  receiver.onAny((event) => {
    const { gesture_type } = event as { gesture_type?: string }
    const { event_id } = (event.data ?? {}) as { event_id?: string }
    const detail = gesture_type ?? event_id
    handled.push({ event: event.event, user_app_id: String(event.user_app_id), detail })
  })
  return handled
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string
  fields: Record<string, unknown>
}

/** A logger that keeps every line, so tests can assert on what the receiver reported. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = []
  const make = (bindings: Record<string, unknown>): Logger => {
    const at =
      (level: LogLine['level']): LogFn =>
      (fields, message) =>
        void lines.push({ level, message: message ?? '', fields: { ...bindings, ...fields } })
    return {
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (more) => make({ ...bindings, ...more }),
    }
  }
  return Object.assign(make({}), { lines })
}

/** Resolves with the first simulator log entry, from now on, that matches. */
export function nextEntry<T extends LogEntry['type']>(
  sim: Simulator,
  type: T,
  match: (entry: Extract<LogEntry, { type: T }>) => boolean = () => true,
): Promise<Extract<LogEntry, { type: T }>> {
  return new Promise((resolve) => {
    const stop = sim.on('entry', (entry) => {
      if (entry.type !== type) return
      const typed = entry as Extract<LogEntry, { type: T }>
      if (!match(typed)) return
      stop()
      resolve(typed)
    })
  })
}
