import type { DedupKeyFn } from '../dedup/key.js'
import { defaultDedupKey } from '../dedup/key.js'
import { createMemoryStore } from '../dedup/memory-store.js'
import type { DedupStore } from '../dedup/store.js'
import { RinghookConfigError } from '../errors.js'
import { consoleLogger, type Logger } from '../logger.js'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../signature/headers.js'
import { assertTolerance, DEFAULT_TOLERANCE_SECONDS } from '../signature/verify.js'

/**
 * Picks the secrets for a delivery, for receivers that serve several apps. `appId` comes from
 * the body before its signature is checked: use it only to choose, never to trust.
 */
export type SecretResolver = (hint: {
  appId: string | undefined
}) => string | readonly string[] | Promise<string | readonly string[]>

export interface ReceiverOptions {
  /** The webhook secret; several during a rotation; or a resolver per app. */
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
  /** Dedup lifetimes and key. */
  dedup?: { inFlightTtlMs?: number; completedTtlMs?: number; key?: DedupKeyFn }
  /** When the store fails: `'retry'` (default) answers 503; `'process'` runs handlers undeduplicated. */
  onStoreError?: 'retry' | 'process'
  /** Reject bodies not sent as `application/json` with 415. Default true. */
  requireJsonContentType?: boolean
  /** A pino-compatible logger. Default: warnings and errors to the console. */
  logger?: Logger
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
  /** Header names, if the service is deployed under another name. */
  headers?: { signature?: string; timestamp?: string }
}

export type ResolvedOptions = Readonly<{
  secret: SecretResolver
  /** The configured secrets when they are fixed (not a resolver): used without a call. */
  staticSecrets: readonly string[] | undefined
  toleranceSeconds: number
  maxBodyBytes: number
  bodyTimeoutMs: number
  deadlineMs: number
  onDeadline: 'acknowledge' | 'retry'
  store: DedupStore
  inFlightTtlMs: number
  completedTtlMs: number
  dedupKey: DedupKeyFn
  onStoreError: 'retry' | 'process'
  requireJsonContentType: boolean
  logger: Logger
  now: () => number
  signatureHeader: string
  timestampHeader: string
  /** Whether the resolver wants the app id, which costs an early parse. */
  resolvesPerApp: boolean
}>

const positive = (name: string, value: number | undefined, fallback: number): number => {
  const v = value ?? fallback
  if (!Number.isFinite(v) || v <= 0)
    throw new RinghookConfigError(`${name} must be a positive number, got ${String(v)}`)
  return v
}

function fixedSecrets(secret: ReceiverOptions['secret'] | undefined): readonly string[] | undefined {
  if (typeof secret === 'function') return undefined
  const list = typeof secret === 'string' ? [secret] : secret
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new RinghookConfigError(
      'createReceiver needs `secret`: the webhook secret from the apps page (a non-empty string), several during a rotation, or a resolver function.',
    )
  }
  return Object.freeze([...list])
}

/** Validates options and fills in defaults. Throws {@link RinghookConfigError}. */
export function resolveOptions(options: ReceiverOptions): ResolvedOptions {
  const deadlineMs = positive('deadlineMs', options.deadlineMs, 10_000)
  if (deadlineMs >= 30_000)
    throw new RinghookConfigError('deadlineMs must be under 30000: the service gives up at 30 s')
  const staticSecrets = fixedSecrets(options?.secret)
  return Object.freeze({
    secret: staticSecrets ? () => staticSecrets : (options.secret as SecretResolver),
    staticSecrets,
    toleranceSeconds: assertTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS),
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 64 * 1024),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
    deadlineMs,
    onDeadline: options.onDeadline ?? 'acknowledge',
    store: options.store ?? createMemoryStore({ ...(options.now ? { now: options.now } : {}) }),
    // A claim outlives the deadline but lapses before the service's last retry (~36 s after the
    // first attempt), so a delivery whose instance died mid-handler is processed by that retry.
    inFlightTtlMs: positive('dedup.inFlightTtlMs', options.dedup?.inFlightTtlMs, deadlineMs + 5_000),
    // Covers the replay window (tolerance on both sides) and the whole retry schedule.
    completedTtlMs: positive('dedup.completedTtlMs', options.dedup?.completedTtlMs, 15 * 60_000),
    dedupKey: options.dedup?.key ?? defaultDedupKey,
    onStoreError: options.onStoreError ?? 'retry',
    requireJsonContentType: options.requireJsonContentType ?? true,
    logger: options.logger ?? consoleLogger(),
    now: options.now ?? Date.now,
    signatureHeader: (options.headers?.signature ?? SIGNATURE_HEADER).toLowerCase(),
    timestampHeader: (options.headers?.timestamp ?? TIMESTAMP_HEADER).toLowerCase(),
    resolvesPerApp: typeof options.secret === 'function',
  })
}
