import type { Capture } from '../capture/capture.js'
import type { DedupKeyFn } from '../dedup/key.js'
import { defaultDedupKey } from '../dedup/key.js'
import { createMemoryStore } from '../dedup/memory-store.js'
import type { DedupStore } from '../dedup/store.js'
import { RinghookConfigError } from '../errors.js'
import { consoleLogger, type Logger } from '../logger.js'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../signature/headers.js'
import { assertTolerance, DEFAULT_TOLERANCE_SECONDS, usableSecret } from '../signature/verify.js'
import type { Instrumentation } from './instrumentation.js'
import { DEFAULT_LOG_LIMIT, type LogLimit } from './log-limit.js'
import { isOutlet } from './outlet.js'
import { type VibeBudgetOptions, VibeBudgetSpender } from './vibe-budget.js'

/**
 * Finds the secrets when a delivery arrives: for receivers that serve several apps, or to read the
 * secret at run time rather than when the module is imported (`() => process.env.RING_WEBHOOK_SECRET`,
 * for frameworks that import routes at build time). `appId` comes from the body before its signature
 * is checked: use it only to choose, never to trust. A resolver that throws or gives no secret
 * (`undefined`, empty) is answered 503 `secret_unavailable`, which the service retries, and logged
 * once as a warning.
 */
export type SecretResolver = (hint: {
  appId: string | undefined
}) => string | readonly string[] | undefined | Promise<string | readonly string[] | undefined>

/** How {@link createReceiver} verifies, deduplicates, times and logs deliveries; only `secret` is required. */
export interface ReceiverOptions {
  /**
   * The webhook secret; several during a rotation; or a resolver, called per delivery (per app, or
   * to read the secret at run time: `secret: () => process.env.RING_WEBHOOK_SECRET`).
   */
  secret: string | readonly string[] | SecretResolver
  /** Allowed clock difference, seconds, either direction. Default 300 (the service's rule). */
  toleranceSeconds?: number
  /** Largest accepted body. Default 64 KiB; webhook payloads are well under 1 KiB. */
  maxBodyBytes?: number
  /**
   * Longest time the whole body may take to arrive once reading starts. Default 10 s. Checked on one
   * shared timer rather than one per request, so a slow body is cut off within 1.25 times this.
   */
  bodyTimeoutMs?: number
  /** When the receiver answers whatever its handlers do. Default 10 s; the service gives up at 30 s. */
  deadlineMs?: number
  /**
   * The answer when handlers pass the deadline. `'acknowledge'` (default) answers 2xx and lets them
   * finish, reporting a later failure to `onError`; `'retry'` answers 503 so the service retries,
   * and the retry gets the result once the handlers finish.
   */
  onDeadline?: 'acknowledge' | 'retry'
  /** Where deliveries are remembered. Default: a bounded in-memory store. */
  store?: DedupStore
  /**
   * Dedup lifetimes and key. `completedTtlMs` defaults to twice `toleranceSeconds` plus five
   * minutes (15 min): longer than a delivery can arrive again, as a replay inside the tolerance
   * on either side or as one of the service's retries (1 s, 5 s, 30 s, each attempt up to 30 s).
   */
  dedup?: {
    /**
     * How long a claim holds while its handlers run. Default `deadlineMs` plus 5 s: longer than the
     * receiver waits, and over before the service's last retry, so a delivery whose instance died
     * mid-handler is handled by that retry.
     */
    inFlightTtlMs?: number
    /** How long a handled delivery is remembered and its reply replayed. Default 15 min (above). */
    completedTtlMs?: number
    /** What identifies a delivery. Default {@link defaultDedupKey}. */
    key?: DedupKeyFn
  }
  /** When the store fails: `'retry'` (default) answers 503; `'process'` runs handlers undeduplicated. */
  onStoreError?: 'retry' | 'process'
  /** Reject bodies not sent as `application/json` with 415. Default true. */
  requireJsonContentType?: boolean
  /** A pino-compatible logger. Default: warnings and errors to the console. */
  logger?: Logger
  /**
   * At most `lines` log lines per `intervalMs` about refused requests (forged, stale, malformed,
   * oversized, a full store), which a stranger can send at will; the rest are counted and
   * summed up in one line per interval. Default `{ lines: 10, intervalMs: 60_000 }`; `false`
   * writes every one.
   */
  logLimit?: Partial<LogLimit> | false
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
  /** Header names, if the service is deployed under another name. */
  headers?: {
    /** The signature header's name. Default `x-service-signature`. */
    signature?: string
    /** The timestamp header's name. Default `x-service-timestamp`. */
    timestamp?: string
  }
  /**
   * Traces and metrics for every delivery, e.g. `otelInstrumentation()` from `@ringhook/otel`.
   * Default: none, and then no instrumentation work is done at all.
   */
  instrumentation?: Instrumentation
  /**
   * Records answered deliveries for replay: `createCapture({ sink })` from `@ringhook/core/capture`.
   * Recording happens after the answer; a failing or slow sink never changes one. Default: none.
   */
  capture?: Capture
  /**
   * Counts each vibe a gesture reply carries against its user's budget, e.g. the client's limiter:
   * `{ budget: limiter }`. Over budget, the reply goes without its vibe (`whenSpent`). Default: none.
   */
  vibeBudget?: VibeBudgetOptions
  /** @deprecated The same as {@link ReceiverOptions.vibeBudget}, its name before 0.2.0; removed in 0.3.0. */
  limits?: VibeBudgetOptions
}

/** The options as the receiver runs with them: validated, defaults filled in (`receiver.options`). */
export type ResolvedOptions = Readonly<{
  /** The secrets, always as a resolver. */
  secret: SecretResolver
  /** The configured secrets when they are fixed (not a resolver): used without a call. */
  staticSecrets: readonly string[] | undefined
  /** See {@link ReceiverOptions.toleranceSeconds}. */
  toleranceSeconds: number
  /** See {@link ReceiverOptions.maxBodyBytes}. */
  maxBodyBytes: number
  /** See {@link ReceiverOptions.bodyTimeoutMs}. */
  bodyTimeoutMs: number
  /** See {@link ReceiverOptions.deadlineMs}. */
  deadlineMs: number
  /** See {@link ReceiverOptions.onDeadline}. */
  onDeadline: 'acknowledge' | 'retry'
  /** See {@link ReceiverOptions.store}. */
  store: DedupStore
  /** See `dedup.inFlightTtlMs` of {@link ReceiverOptions.dedup}. */
  inFlightTtlMs: number
  /** See `dedup.completedTtlMs` of {@link ReceiverOptions.dedup}. */
  completedTtlMs: number
  /** See `dedup.key` of {@link ReceiverOptions.dedup}. */
  dedupKey: DedupKeyFn
  /** See {@link ReceiverOptions.onStoreError}. */
  onStoreError: 'retry' | 'process'
  /** See {@link ReceiverOptions.requireJsonContentType}. */
  requireJsonContentType: boolean
  /** See {@link ReceiverOptions.logger}. */
  logger: Logger
  /** See {@link ReceiverOptions.logLimit}; `false` became an unlimited one. */
  logLimit: LogLimit
  /** See {@link ReceiverOptions.now}. */
  now: () => number
  /** The signature header's name, in lower case. */
  signatureHeader: string
  /** The timestamp header's name, in lower case. */
  timestampHeader: string
  /** Whether the resolver wants the app id, which costs an early parse. */
  resolvesPerApp: boolean
  /** Traces and metrics for every delivery, when configured. */
  instrumentation: Instrumentation | undefined
  /** Records answered deliveries, when configured. */
  capture: Capture | undefined
  /** Gesture replies' vibe budget, when configured; `stats()` counts what it decided. */
  vibeBudget: VibeBudgetSpender | undefined
  /** @deprecated The same as `vibeBudget`, its name before 0.2.0; removed in 0.3.0. */
  limits: VibeBudgetSpender | undefined
}>

const positive = (name: string, value: number | undefined, fallback: number): number => {
  const v = value ?? fallback
  if (!Number.isFinite(v) || v <= 0)
    throw new RinghookConfigError(`${name} must be a positive number, got ${String(v)}`)
  return v
}

function fixedSecrets(secret: ReceiverOptions['secret'] | undefined): readonly string[] | undefined {
  if (typeof secret === 'function') return undefined
  if (!usableSecret(secret)) {
    throw new RinghookConfigError(
      'createReceiver needs `secret`: the webhook secret from the apps page (a non-empty string), several during a rotation, or a resolver function. ' +
        'Created where the variable is not set yet (a route imported at build time)? Read it when a delivery arrives: `secret: () => process.env.RING_WEBHOOK_SECRET`.',
    )
  }
  return Object.freeze(typeof secret === 'string' ? [secret] : [...secret])
}

/** The service's retry delays (1 s, 5 s, 30 s) and the 30 s each of its four attempts may take. */
const RETRY_SCHEDULE_MS = (1 + 5 + 30 + 4 * 30) * 1000

/**
 * How long after its first arrival a delivery can arrive again: a copy signed at the far end of
 * the tolerance window, or a retry re-signed at the end of the schedule and replayed.
 */
export const dedupWindowMs = (toleranceSeconds: number): number => 2 * toleranceSeconds * 1000 + RETRY_SCHEDULE_MS

function logLimit(value: ReceiverOptions['logLimit']): LogLimit {
  if (value === false) return Object.freeze({ lines: Number.POSITIVE_INFINITY, intervalMs: 1 })
  const lines = value?.lines ?? DEFAULT_LOG_LIMIT.lines
  if (!Number.isInteger(lines) || lines < 0)
    throw new RinghookConfigError(`logLimit.lines must be a whole number >= 0, got ${String(lines)}`)
  return Object.freeze({ lines, intervalMs: positive('logLimit.intervalMs', value?.intervalMs, 60_000) })
}

function instrumentation(value: Instrumentation | undefined): Instrumentation | undefined {
  if (value !== undefined && typeof value?.delivery !== 'function')
    throw new RinghookConfigError('instrumentation must have a `delivery(request)` method, e.g. otelInstrumentation()')
  return value
}

function capture(value: Capture | undefined): Capture | undefined {
  if (value !== undefined && !isOutlet(value))
    throw new RinghookConfigError('capture must be made by createCapture({ sink }) from @ringhook/core/capture')
  return value
}

/** Validates options and fills in defaults. Throws {@link RinghookConfigError}. */
export function resolveOptions(options: ReceiverOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null)
    throw new RinghookConfigError('createReceiver needs options: createReceiver({ secret })')
  const deadlineMs = positive('deadlineMs', options.deadlineMs, 10_000)
  if (deadlineMs >= 30_000)
    throw new RinghookConfigError('deadlineMs must be under 30000: the service gives up at 30 s')
  const staticSecrets = fixedSecrets(options.secret)
  const toleranceSeconds = assertTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)
  const logger = options.logger ?? consoleLogger()
  const completedTtlMs = positive(
    'dedup.completedTtlMs',
    options.dedup?.completedTtlMs,
    dedupWindowMs(toleranceSeconds) + (300 - RETRY_SCHEDULE_MS / 1000) * 1000,
  )
  if (completedTtlMs < dedupWindowMs(toleranceSeconds)) {
    logger.warn(
      { completed_ttl_ms: completedTtlMs, window_ms: dedupWindowMs(toleranceSeconds) },
      'dedup.completedTtlMs is shorter than a delivery can arrive again: a late replay or retry may be handled twice',
    )
  }
  const vibeBudget = spender(options, logger)
  return Object.freeze({
    secret: staticSecrets ? () => staticSecrets : (options.secret as SecretResolver),
    staticSecrets,
    toleranceSeconds,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 64 * 1024),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
    deadlineMs,
    onDeadline: options.onDeadline ?? 'acknowledge',
    store: options.store ?? createMemoryStore({ logger, ...(options.now ? { now: options.now } : {}) }),
    // A claim outlives the deadline but lapses before the service's last retry (~36 s after the
    // first attempt), so a delivery whose instance died mid-handler is processed by that retry.
    inFlightTtlMs: positive('dedup.inFlightTtlMs', options.dedup?.inFlightTtlMs, deadlineMs + 5_000),
    // Covers the replay window (tolerance on both sides) and the whole retry schedule.
    completedTtlMs,
    dedupKey: options.dedup?.key ?? defaultDedupKey,
    onStoreError: options.onStoreError ?? 'retry',
    requireJsonContentType: options.requireJsonContentType ?? true,
    logger,
    logLimit: logLimit(options.logLimit),
    now: options.now ?? Date.now,
    signatureHeader: (options.headers?.signature ?? SIGNATURE_HEADER).toLowerCase(),
    timestampHeader: (options.headers?.timestamp ?? TIMESTAMP_HEADER).toLowerCase(),
    resolvesPerApp: typeof options.secret === 'function',
    instrumentation: instrumentation(options.instrumentation),
    capture: capture(options.capture),
    vibeBudget,
    limits: vibeBudget,
  })
}

/** The `vibeBudget` option (or its deprecated name `limits`, not both), resolved. */
function spender(options: ReceiverOptions, logger: Logger): VibeBudgetSpender | undefined {
  const { vibeBudget, limits } = options
  if (vibeBudget !== undefined && limits !== undefined)
    throw new RinghookConfigError('Give vibeBudget only: limits is its deprecated name')
  const now = options.now ?? Date.now
  if (vibeBudget !== undefined) return new VibeBudgetSpender(vibeBudget, logger, now)
  return limits === undefined ? undefined : new VibeBudgetSpender(limits, logger, now, 'limits')
}
