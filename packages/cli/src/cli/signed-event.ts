import { readFileSync } from 'node:fs'
import type { EventName } from '@ringhook/core'
import { EVENT_NAMES, isKnownEventName } from '@ringhook/core/api'
import { createEvent } from '@ringhook/testing'
import { parseJson, parseNumber, UsageError } from './io.js'

/** Where every example listens; `--url` defaults to it. */
export const DEFAULT_URL = 'http://localhost:3000/webhooks'

/** The environment variable every example reads its secret from; `--secret` defaults to it. */
export const SECRET_ENV = 'RING_WEBHOOK_SECRET'

/** `--secret`, or the secret in the environment as the examples read it; a UsageError when neither is set. */
export function secretFrom(flag: string | undefined): string {
  const secret = flag ?? process.env[SECRET_ENV]
  if (!secret) throw new UsageError(`--secret is required (or set ${SECRET_ENV}).`)
  return secret
}

/** `--url`, or where the examples listen; a UsageError when it is not a URL. */
export function urlFrom(flag: string | undefined): string {
  const url = flag ?? DEFAULT_URL
  if (!URL.canParse(url)) throw new UsageError(`--url "${url}" is not a URL.`)
  return url
}

/** Flags that build an event from the factories. */
const EVENT_FLAGS = {
  event: { type: 'string' },
  payload: { type: 'string' },
  file: { type: 'string' },
  'gesture-type': { type: 'string' },
  'user-app-id': { type: 'string' },
  'app-id': { type: 'string' },
  'external-user-id': { type: 'string' },
  'event-id': { type: 'string' },
  response: { type: 'string' },
} as const

export const EVENT_FLAGS_HELP = `Payload (one of):
  <event> / --event <name>   build a valid event: ${EVENT_NAMES.join(', ')}
  --payload <json>           the exact body to send
  --file <path>              read the body from a file ("-" for stdin)
Without --secret, the secret is read from RING_WEBHOOK_SECRET, as the examples read it.
Event fields (with an event name):
  --gesture-type <type>      gesture only; default tap
  --user-app-id <id>  --app-id <id>  --external-user-id <id>
  --event-id <id>  --response <yes|no|dismiss|emoji:<e>>   notification.responded only`

/** The flags of `sign` and `send`: the body, then how to sign it, where it goes and how to print. */
export const SIGNED_EVENT_FLAGS = {
  ...EVENT_FLAGS,
  secret: { type: 'string' },
  url: { type: 'string' },
  timestamp: { type: 'string' },
  json: { type: 'boolean' },
} as const

type EventValues = Partial<Record<keyof typeof EVENT_FLAGS, string>>
type SignedEventValues = EventValues & { secret?: string; url?: string; timestamp?: string; json?: boolean }
type ParsedSignedEvent = { values: SignedEventValues; positionals: string[] }

/** What `sign` and `send` both read from their command line. */
export interface SignedEvent {
  /** The exact text to sign and send. */
  body: string
  /** The event name, when the body has one. */
  event: string | undefined
  /** For signEvent and sendWebhook. */
  signing: { secret: string; timestamp?: number }
  /** `--url`, or {@link DEFAULT_URL}. */
  url: string
  json: boolean
}

/**
 * Reads what `sign` and `send` share from their parsed command line (`SIGNED_EVENT_FLAGS`); a
 * UsageError for a missing secret, a bad URL, a stray argument or a bad body. Checks everything
 * else before reading a body from a file or stdin.
 */
export function signedEvent(parsed: ParsedSignedEvent): SignedEvent {
  const { values, positionals } = parsed
  const secret = secretFrom(values.secret)
  const url = urlFrom(values.url)
  if (positionals.length > 1) throw new UsageError(`Unexpected arguments: ${positionals.slice(1).join(' ')}`)
  const timestamp = parseNumber(values.timestamp, '--timestamp')
  return {
    ...buildBody(values, positionals[0]),
    signing: { secret, ...(timestamp === undefined ? {} : { timestamp: Math.floor(timestamp) }) },
    url,
    json: values.json === true,
  }
}

/** The body to sign: exact text from --payload/--file, or a factory event with the given fields. */
function buildBody(values: EventValues, positional: string | undefined): { body: string; event: string | undefined } {
  const sources = [values.payload, values.file, values.event ?? positional].filter((v) => v !== undefined)
  if (sources.length === 0) throw new UsageError('Give an event name, --payload <json> or --file <path>.')
  if (sources.length > 1) throw new UsageError('Give only one of: an event name, --payload, --file.')
  if (values.payload !== undefined) return textBody(values.payload, '--payload')
  if (values.file !== undefined) return textBody(readFile(values.file), '--file')
  const name = (values.event ?? positional) as string
  if (!isKnownEventName(name)) throw new UsageError(`Unknown event "${name}"; use one of: ${EVENT_NAMES.join(', ')}.`)
  return { body: JSON.stringify(eventFrom(name, values)), event: name }
}

function eventFrom(name: EventName, values: EventValues) {
  const fields = {
    ...(values['user-app-id'] ? { user_app_id: values['user-app-id'] } : {}),
    ...(values['app-id'] ? { app_id: values['app-id'] } : {}),
    ...(values['external-user-id'] ? { external_user_id: values['external-user-id'] } : {}),
  }
  if (name === 'gesture') return createEvent('gesture', { ...fields, gesture_type: values['gesture-type'] ?? 'tap' })
  if (name === 'notification.responded') {
    const data = {
      ...(values['event-id'] ? { event_id: values['event-id'] } : {}),
      ...(values.response ? { response: values.response as 'yes' } : {}),
    }
    return createEvent('notification.responded', { ...fields, data })
  }
  return createEvent(name, fields)
}

function textBody(text: string, flag: string): { body: string; event: string | undefined } {
  const value = parseJson(text, flag) as { event?: unknown } | null
  return { body: text, event: typeof value?.event === 'string' ? value.event : undefined }
}

function readFile(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8')
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`)
  }
}
