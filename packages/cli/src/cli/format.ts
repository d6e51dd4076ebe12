import type { LogEntry } from '@ringhook/simulator/control-api'
import { explainAnswer } from '@ringhook/testing'
import { printable } from './printable.js'

const time = (iso: string) => iso.slice(11, 23)
const short = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…` : id)

/**
 * One human-readable line per log entry (a refused attempt adds an indented second one); null for
 * entries too noisy for a live log. Ids, messages and replies come from outside: a newline or an
 * escape sequence in them is printed as `\u000a`, `\u001b`, never acted on.
 */
export function formatEntry(entry: LogEntry): string | null {
  const line = (tag: string, text: string, detail?: string) =>
    `${time(entry.at)}  ${tag.padEnd(8)} ${printable(text, { oneLine: true })}${detail ? `\n${' '.repeat(24)}${printable(detail, { oneLine: true })}` : ''}`
  switch (entry.type) {
    case 'request': {
      const error = entry.error_code ? ` ${entry.error_code}` : ''
      return line('API', `${entry.method} ${entry.path} → ${entry.status}${error} (${entry.key_id ?? 'no key'})`)
    }
    case 'gesture':
      return line(
        'GESTURE',
        `${entry.gesture_type} by ${short(entry.user_app_id)}${entry.forwarded ? '' : ' (not forwarded: the user turned gesture forwarding off)'}`,
      )
    case 'delivery.queued':
      return null
    case 'delivery.attempt': {
      const answer = entry.status === null ? `${entry.outcome} (${entry.error})` : `${entry.status}`
      const retry = entry.next_retry_in_ms === null ? '' : `, retry in ${entry.next_retry_in_ms} ms`
      const fault = entry.fault ? ` [fault: ${entry.fault}]` : ''
      const text = `${entry.event} #${entry.attempt} → ${answer} in ${entry.latency_ms} ms${retry}${fault}`
      const detail = entry.note ?? (entry.outcome === 'http_error' ? why(entry.status, entry.reply) : undefined)
      return line('WEBHOOK', text, detail)
    }
    case 'fault':
      return line('FAULT', `${entry.fault} on ${entry.event} ${entry.delivery_id}: ${entry.detail}`)
    case 'delivery.settled':
      if (entry.status === 'delivered' && entry.attempts === 1) return null
      if (entry.status === 'skipped') return line('WEBHOOK', `${entry.event} not sent: the app has no webhook URL`)
      return line('WEBHOOK', `${entry.event} ${entry.status} after ${entry.attempts} attempt(s)`)
    case 'vibe': {
      const steps = entry.sequence.map((step) => step.type).join(', ')
      const message = entry.message ? ` "${entry.message}"` : ''
      const why = entry.rule ? ` (${entry.rule})` : ''
      return line('VIBE', `${entry.status} to ${entry.user_id}: ${steps || '—'}${message} [${entry.source}]${why}`)
    }
    case 'notification.created':
      return line('NOTIFY', `${entry.event_id} waits for ${short(entry.user_app_id)} (${entry.response_config.type})`)
    case 'notification.answered':
      return line('ANSWER', `${entry.event_id} → ${entry.response}`)
    case 'notification.timeout':
      return line('TIMEOUT', `${entry.event_id}: the await-mode trigger timed out`)
    case 'state':
      return line('STATE', `${entry.change}${entry.id ? ` ${entry.id}` : ''}`)
  }
}

/** The receiver's error code and the likely fix, for an answer that was not an acknowledgement. */
function why(status: number | null, reply: string | null): string | undefined {
  if (status === null) return undefined
  const { code, meaning, fix } = explainAnswer(status, reply ?? '')
  return `${code ? `${code}: ` : ''}${meaning}${fix ? `. Fix: ${fix}` : ''}`
}
