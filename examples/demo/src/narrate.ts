// Turns what the simulator, the gateway and the app report into timeline rows.
import type { Logger } from '@ringhook/core'
import type { LogFn } from '@ringhook/core/adapter'
import type { Simulator } from '@ringhook/simulator'
import type { LogEntry } from '@ringhook/simulator/control-api'
import type { Exchange } from './gateway.js'
import type { Timeline } from './timeline.js'

/** Prints the simulator's log entries as they happen; returns the function that stops it. */
export function narrateSimulator(sim: Simulator, timeline: Timeline): () => void {
  const { settings } = sim.state()
  return sim.on('entry', (entry) => {
    const row = describeEntry(entry, settings.retry_delays_ms)
    if (row) timeline.row(...row)
  })
}

type Row = Parameters<Timeline['row']>

function describeEntry(entry: LogEntry, retryDelays: number[]): Row | undefined {
  switch (entry.type) {
    case 'request': {
      const error = entry.error_code ? ` ${entry.error_code}` : ''
      return [
        'app',
        'service',
        `${entry.method} ${entry.path} → ${entry.status}${error}`,
        entry.status < 400 ? 'plain' : 'bad',
      ]
    }
    case 'gesture':
      return ['Ada', 'ring', `${entry.gesture_type}${entry.forwarded ? '' : ' (not forwarded)'}`]
    case 'delivery.attempt': {
      const answer = entry.status === null ? entry.outcome.replace('_', ' ') : `${entry.status}`
      const delay = retryDelays[entry.attempt - 1]
      const retry =
        entry.next_retry_in_ms === null || delay === undefined
          ? ''
          : `, retry in ${delay / 1000} s (${entry.next_retry_in_ms} ms here)`
      const text = `${entry.event} → ${answer}  (attempt ${entry.attempt}, ${Math.round(entry.latency_ms)} ms${retry})`
      return ['service', 'app', text, entry.outcome === 'ok' ? 'plain' : 'bad']
    }
    case 'delivery.settled':
      return entry.status === 'failed'
        ? ['service', null, `gave up on ${entry.event} after ${entry.attempts} attempts`, 'bad']
        : undefined
    case 'vibe': {
      const pattern = entry.sequence.map((step) => step.type).join('·')
      const message = entry.message ? ` "${entry.message}"` : ''
      const why = entry.rule ? ` (${entry.rule})` : ''
      const source = entry.source === 'gesture_reply' ? 'the gesture reply' : 'a trigger'
      return ['service', 'ring', `vibe ${pattern}${message} from ${source}: ${entry.status}${why}`]
    }
    case 'notification.created':
      return ['ring', 'Ada', `asks for an answer (${entry.response_mode} mode)`]
    case 'notification.answered':
      return ['Ada', 'ring', `answers "${entry.response}"`]
    case 'notification.timeout':
      return ['service', 'app', `no answer in time for ${entry.event_id}`, 'bad']
    default:
      return undefined
  }
}

/** Rows for webhooks the gateway spoiled, and for answers the app gave from its dedup store. */
export function narrateExchange(timeline: Timeline, exchange: Exchange): void {
  if (exchange.fault === 'down') {
    timeline.row('gateway', 'service', `503 for ${exchange.event}: the app is unreachable, it never saw it`, 'bad')
  } else if (exchange.fault === 'lose-ack') {
    const answered = exchange.duplicate ? `${exchange.appStatus} (from its dedup store)` : `${exchange.appStatus}`
    timeline.row(
      'gateway',
      'service',
      `502 for ${exchange.event}: the app answered ${answered}, the answer was lost`,
      'bad',
    )
  } else if (exchange.duplicate) {
    timeline.row(
      'app',
      'service',
      `${exchange.status} for ${exchange.event} from the dedup store (x-ringhook-duplicate)`,
    )
  }
}

/**
 * A logger for the app's receiver or client: warnings and errors (a rejected request, a failing
 * handler) become rows. Info lines (a duplicate replayed) are left out: the gateway shows those.
 */
export function timelineLogger(timeline: Timeline, name: string): Logger {
  const report: LogFn = (_fields, message) => timeline.row('app', null, `${name}: ${message ?? ''}`, 'bad')
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: report,
    error: report,
    child: () => logger,
  }
  return logger
}

/**
 * Shows the example app's own `console.log` lines (`[app] …`) as rows while the demo runs;
 * returns the function that restores `console.log`.
 */
export function captureAppLog(timeline: Timeline): () => void {
  const original = console.log
  console.log = (...args: unknown[]) => {
    const text = args.map(String).join(' ')
    if (text.startsWith('[app] ')) timeline.row('app', null, text)
    else original(...args)
  }
  return () => {
    console.log = original
  }
}
