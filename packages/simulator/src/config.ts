import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { RATE_LIMITS, WEBHOOK_DELIVERY } from '@ringhook/core/api'
import type { TimeSource } from './clock.js'
import type { FaultSettingsInput } from './faults/kinds.js'
import type { Settings } from './model.js'

/** Gesture types every simulator accepts; the service does not list its own (spec section 6, rule 7). */
export const DEFAULT_GESTURE_TYPES = ['tap', 'double_tap', 'long_press', 'swipe_up', 'swipe_down'] as const

/** How the demo data is set up (the `seed` option of {@link SimulatorOptions}). */
export interface SeedOptions {
  /** Webhook URL of both demo apps; none when omitted (deliveries are then recorded as skipped). */
  webhookUrl?: string
  /** Webhook secret of both demo apps, so one receiver verifies both; generated when omitted. */
  secret?: string
}

/** How {@link createSimulator} starts: where it listens, how fast time runs, what it starts with. */
export interface SimulatorOptions {
  /** Port to listen on; default 0 (any free port). */
  port?: number
  /** Default `127.0.0.1`. */
  host?: string
  /**
   * Host names the simulator answers to beside IP addresses, `localhost` and `host`, e.g. `['sim.test']`
   * when it is reached through a name (a container, a proxy). Any other Host header is refused with
   * 403 `host_not_allowed`, so a web page cannot reach it by rebinding its own name to 127.0.0.1.
   */
  allowedHosts?: readonly string[]
  /**
   * The token that state-changing control calls (`POST`/`PATCH /_sim/...`) carry in the
   * `x-ringhook-sim-token` header; the page served through `handler` is given it. Default: a new
   * random one each run, readable as `sim.token`. At least 16 of `A-Z a-z 0-9 . _ ~ -`.
   */
  token?: string
  /**
   * Multiplies every wait: retry delays, the 30 s acknowledgement limit and await timeouts.
   * `0.001` turns the 30 s retry delay into 30 ms. Default 1.
   */
  timeScale?: number
  /** Milliseconds since the epoch, for timestamps and rate-limit windows. Default `Date.now`. */
  clock?: TimeSource
  /** Gesture types accepted beside the defaults (`tap`, `double_tap`, `long_press`, `swipe_up`, `swipe_down`). */
  gestureTypes?: readonly string[]
  /** Acknowledgement limit of a webhook, before scaling. Default 30 000 (the spec's). */
  ackTimeoutMs?: number
  /** Delays before each retry, before scaling. Default `[1000, 5000, 30000]` (the spec's). */
  retryDelaysMs?: readonly number[]
  /** The `delivery.latency_ms` reported for a vibe sent to a ring. Default 25. */
  ringLatencyMs?: number
  /** How many log entries, deliveries and vibes are kept. Default 5000. */
  logLimit?: number
  /** Overrides of the spec's rate limits (100 requests per 60 s per key, 30 vibes per minute per user). */
  rateLimits?: Partial<
    Record<
      'requestsPerKey' | 'vibesPerUser',
      {
        /** Requests (or vibes) allowed in one window. */
        limit: number
        /** The window's length. */
        windowMs: number
      }
    >
  >
  /**
   * Faults to inject from the start: a profile (`flaky-network`, `reorder`, `rotation`, `clock-skew`,
   * `chaos`), per-fault probabilities and the random seed. Default none; `sim.faults` changes them.
   */
  faults?: FaultSettingsInput
  /** Seeds demo data: one key linked to a user, a control app owned by it, users in every state. */
  seed?: boolean | SeedOptions
  /**
   * Extra routes, such as `createUiHandler()` of `@ringhook/simulator-ui`: called for every request
   * outside `/_sim/` before the API; returns true when it answered. It cannot shadow the control API.
   */
  handler?: ExtraHandler
}

/** What the simulator hands to an {@link ExtraHandler} with every request. */
export interface ExtraContext {
  /** The per-run token: a page that drives the control API sends it in `x-ringhook-sim-token`. */
  token: string
}

/** A node:http handler that answers its own paths and returns false for the others. */
export type ExtraHandler = (request: IncomingMessage, response: ServerResponse, context: ExtraContext) => boolean

export interface ResolvedConfig {
  port: number
  host: string
  allowedHosts: Set<string>
  token: string
  clock: TimeSource
  logLimit: number
  settings: Settings
  faults: FaultSettingsInput | undefined
}

const positive = (name: string, value: number) => {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`)
  return value
}

export function resolveConfig(options: SimulatorOptions): ResolvedConfig {
  const requests = options.rateLimits?.requestsPerKey ?? RATE_LIMITS.requestsPerKey
  const vibes = options.rateLimits?.vibesPerUser ?? RATE_LIMITS.vibesPerUser
  const retryDelays = [...(options.retryDelaysMs ?? WEBHOOK_DELIVERY.retryDelaysMs)]
  const host = options.host ?? '127.0.0.1'
  for (const delay of retryDelays) positive('retryDelaysMs[]', delay)
  return {
    port: options.port ?? 0,
    host,
    // The bound host is a name its user calls it by (an address passes anyway).
    allowedHosts: new Set([host, ...(options.allowedHosts ?? []).map(hostName)].map((name) => name.toLowerCase())),
    token: token(options.token),
    clock: options.clock ?? Date.now,
    logLimit: positive('logLimit', options.logLimit ?? 5000),
    faults: options.faults,
    settings: {
      base_url: '',
      api_url: '',
      time_scale: positive('timeScale', options.timeScale ?? 1),
      ack_timeout_ms: positive('ackTimeoutMs', options.ackTimeoutMs ?? WEBHOOK_DELIVERY.ackTimeoutMs),
      retry_delays_ms: retryDelays,
      gesture_types: [...new Set([...DEFAULT_GESTURE_TYPES, ...(options.gestureTypes ?? [])])],
      ring_latency_ms: options.ringLatencyMs ?? 25,
      rate_limits: {
        requests_per_key: { limit: requests.limit, window_ms: requests.windowMs },
        vibes_per_user: { limit: vibes.limit, window_ms: vibes.windowMs },
      },
    },
  }
}

function hostName(name: string): string {
  if (!/^[\w.-]+$/.test(name))
    throw new RangeError(`allowedHosts (--allowed-hosts) takes host names without scheme or port, got "${name}"`)
  return name
}

function token(given: string | undefined): string {
  if (given === undefined) return randomBytes(24).toString('base64url')
  if (!/^[\w.~-]{16,256}$/.test(given))
    throw new RangeError('token (RINGHOOK_SIM_TOKEN) must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ -')
  return given
}
