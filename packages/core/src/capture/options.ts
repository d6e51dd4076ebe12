import { RinghookConfigError } from '../errors.js'
import { consoleLogger, type Logger } from '../logger.js'
import type { PersonalFields } from './personal.js'
import { type CaptureOutcome, captureOutcomeSchema } from './record.js'
import type { CaptureSink } from './sink.js'

/** What {@link createCapture} records, and where. Only `sink` is required. */
export interface CaptureOptions {
  /** Where records go: `fileSink()` from `@ringhook/capture`, `redisCaptureSink()`, `postgresCaptureSink()`, your own. */
  sink: CaptureSink
  /** Which deliveries to record, by what they came to. Default: all four. `['failed', 'refused']` keeps only trouble. */
  outcomes?: readonly CaptureOutcome[]
  /** The share of those deliveries recorded, from 0 to 1, chosen at random. Default 1 (all). */
  sampleRate?: number
  /**
   * The most bytes of records waiting for the sink (bodies and answers, counted as text). A delivery
   * that would pass it is not recorded, and counted (`stats().dropped`). Default 8 MiB.
   */
  maxBytes?: number
  /**
   * Request headers whose values are replaced by `[redacted]`, besides the receiver's signature
   * header, which always is. Default: `authorization`, `proxy-authorization`, `cookie`, `x-api-key`.
   * A list you give replaces that one.
   */
  redact?: readonly string[]
  /**
   * What is recorded of unauthenticated deliveries: those refused before or at the signature check,
   * which anyone can send. Within their own share of `maxBytes` and at most `perSecond` a second, so
   * that strangers cannot crowd out authentic deliveries; their bodies cut to `bodyBytes` (with the
   * whole body's SHA-256). Defaults: 1 MiB (or an eighth of `maxBytes` when that is less; at most
   * `maxBytes`), 10 a second, 1 KiB. `false` records none of them.
   */
  unauthenticated?: Partial<UnauthenticatedLimits> | false
  /** The clock, in milliseconds, that spaces warnings and counts `unauthenticated.perSecond`. Default `Date.now`. */
  now?: () => number
  /**
   * Payload fields holding personal data, hashed (default) or dropped before the record leaves the
   * process. Default `{ fields: ['external_user_id'], action: 'hash' }`; `false` keeps them as sent.
   */
  personal?: Partial<PersonalFields> | false
  /**
   * Mixed into each hashed value, so a digest cannot be matched against a list of known ids. Default:
   * random for each capture (digests then match only within one process); set one to match across.
   */
  salt?: string
  /** How long a sink's `write` may take before its batch counts as lost and the next one goes. Default 10 s. */
  timeoutMs?: number
  /** Most records handed to the sink in one `write`. Default 256. */
  batchSize?: number
  /**
   * How long a record may wait for others to fill its batch before the sink is handed what there
   * is, in milliseconds. A full batch, `flush()` and `close()` do not wait. Default 100; 0 writes on
   * the event loop's next turn (many small writes under load).
   */
  delayMs?: number
  /** Where the capture's warnings about lost records go (at most one a minute for each cause). Default: the console. */
  logger?: Logger
}

/** How much is recorded of deliveries refused before their signature checked out. */
export interface UnauthenticatedLimits {
  /** The most bytes of their records waiting for the sink, within `maxBytes`. */
  maxBytes: number
  /** The most of them recorded in a second. */
  perSecond: number
  /** The most bytes of a body kept; a longer one keeps its first bytes and its SHA-256. */
  bodyBytes: number
}

/** The options with defaults filled in. */
export interface ResolvedCaptureOptions {
  readonly sink: CaptureSink
  readonly outcomes: ReadonlySet<CaptureOutcome>
  readonly sampleRate: number
  readonly maxBytes: number
  readonly redact: ReadonlySet<string>
  /** The limits on unauthenticated deliveries' records; `perSecond` 0 when none are recorded. */
  readonly unauthenticated: UnauthenticatedLimits
  readonly now: () => number
  readonly personal: PersonalFields | undefined
  /** What a record whose personal fields were removed says of it: one frozen object, shared by those records. */
  readonly personalNote: Readonly<{ action: PersonalFields['action']; fields: string[] }> | undefined
  readonly salt: string
  readonly timeoutMs: number
  readonly batchSize: number
  readonly delayMs: number
  readonly logger: Logger
}

/** The default budget of records waiting for the sink. */
export const DEFAULT_CAPTURE_BYTES = 8 * 1024 * 1024
/**
 * How long a record waits for its batch by default. Under the bench's node:http load (~7,000
 * deliveries a second) the file sink got 250 records a write with it, 73 without (bench/HISTORY.md,
 * 2026-11-27): fewer writes, and fewer round trips for the Redis and Postgres sinks.
 */
const DEFAULT_DELAY_MS = 100
const DEFAULT_REDACT = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']
const DEFAULT_UNAUTHENTICATED: UnauthenticatedLimits = { maxBytes: 1024 * 1024, perSecond: 10, bodyBytes: 1024 }
const ALL_OUTCOMES = captureOutcomeSchema.options

function positive(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback
  if (!Number.isFinite(v) || v <= 0)
    throw new RinghookConfigError(`capture ${name} must be a positive number, got ${String(v)}`)
  return v
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback
  if (!Number.isFinite(v) || v < 0)
    throw new RinghookConfigError(`capture ${name} must be a number >= 0, got ${String(v)}`)
  return v
}

function randomSalt(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function personal(value: CaptureOptions['personal']): PersonalFields | undefined {
  if (value === false) return undefined
  const fields = value?.fields ?? ['external_user_id']
  const action = value?.action ?? 'hash'
  if (action !== 'hash' && action !== 'drop')
    throw new RinghookConfigError(`capture personal.action must be 'hash' or 'drop', got ${String(action)}`)
  return { fields: [...fields], action }
}

function unauthenticated(value: CaptureOptions['unauthenticated'], budget: number): UnauthenticatedLimits {
  if (value === false) return { ...DEFAULT_UNAUTHENTICATED, perSecond: 0 }
  // A share of the budget: by default at most an eighth of it, and never more than all of it.
  const maxBytes = positive(
    'unauthenticated.maxBytes',
    value?.maxBytes,
    Math.min(DEFAULT_UNAUTHENTICATED.maxBytes, budget / 8),
  )
  if (maxBytes > budget)
    throw new RinghookConfigError(
      `capture unauthenticated.maxBytes must be at most maxBytes (${budget}), got ${maxBytes}`,
    )
  return {
    maxBytes,
    perSecond: positive('unauthenticated.perSecond', value?.perSecond, DEFAULT_UNAUTHENTICATED.perSecond),
    bodyBytes: Math.floor(
      nonNegative('unauthenticated.bodyBytes', value?.bodyBytes, DEFAULT_UNAUTHENTICATED.bodyBytes),
    ),
  }
}

/** Validates the options and fills in defaults. Throws `RinghookConfigError`. */
export function resolveCaptureOptions(options: CaptureOptions): ResolvedCaptureOptions {
  if (typeof options?.sink?.write !== 'function')
    throw new RinghookConfigError('createCapture needs a `sink` with a `write(records)` method, e.g. fileSink()')
  const sampleRate = options.sampleRate ?? 1
  if (!(sampleRate >= 0 && sampleRate <= 1))
    throw new RinghookConfigError(`capture sampleRate must be from 0 to 1, got ${String(sampleRate)}`)
  const outcomes = options.outcomes ?? ALL_OUTCOMES
  for (const outcome of outcomes) {
    if (!ALL_OUTCOMES.includes(outcome))
      throw new RinghookConfigError(
        `capture outcomes: unknown outcome ${JSON.stringify(outcome)}; use ${ALL_OUTCOMES.join(', ')}`,
      )
  }
  const fields = personal(options.personal)
  const maxBytes = positive('maxBytes', options.maxBytes, DEFAULT_CAPTURE_BYTES)
  return {
    sink: options.sink,
    outcomes: new Set(outcomes),
    sampleRate,
    maxBytes,
    redact: new Set((options.redact ?? DEFAULT_REDACT).map((name) => name.toLowerCase())),
    unauthenticated: unauthenticated(options.unauthenticated, maxBytes),
    now: options.now ?? Date.now,
    personal: fields,
    personalNote:
      fields && Object.freeze({ action: fields.action, fields: Object.freeze([...fields.fields]) as string[] }),
    salt: options.salt ?? randomSalt(),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 10_000),
    batchSize: Math.floor(positive('batchSize', options.batchSize, 256)),
    delayMs: nonNegative('delayMs', options.delayMs, DEFAULT_DELAY_MS),
    logger: options.logger ?? consoleLogger(),
  }
}
