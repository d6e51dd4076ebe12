import { readAnswer } from '@ringhook/core/internal'
import { type AnswerExplanation, explainAnswer } from './explain.js'
import { checkGestureReply, type GestureReplyCheck } from './reply-check.js'
import { signEvent } from './sign.js'

/** How {@link sendWebhook} signs and sends. */
export interface SendWebhookOptions {
  /** The app's webhook secret. */
  secret: string
  /** Unix seconds for the signature; defaults to now. */
  timestamp?: number | Date
  /** Give up after this long. Default 30 000 ms, the service's acknowledgement limit. */
  timeoutMs?: number
  /** Extra request headers (they may override the signed ones, to test a receiver's checks). */
  headers?: Record<string, string>
  /** Reads at most this many bytes of the reply and drops the rest (`cut` says so). Default 64 KiB. */
  maxAnswerBytes?: number
}

/** The receiver's answer, and what the service would make of it. */
export interface SendWebhookResult {
  /** The HTTP status. */
  status: number
  /** Whether the status is 2xx: what the service counts as acknowledged. */
  ok: boolean
  /** Time from sending the request to reading the whole reply. */
  latencyMs: number
  /** Response headers, lowercase names. */
  headers: Record<string, string>
  /** The reply body as text: its first `maxAnswerBytes` when it was longer (see `cut`). */
  body: string
  /** The reply was longer than `maxAnswerBytes`: `body` holds its first bytes, the rest was not read. */
  cut: boolean
  /** For a redirect (3xx): its `Location`. The redirect is the answer; it is not followed. */
  location: string | undefined
  /** The reply parsed as JSON, or null when it is empty or not JSON. */
  reply: unknown
  /** For a gesture: whether the reply carries a vibe and whether it follows the trigger rules. */
  vibe: GestureReplyCheck | undefined
  /** For an answer that is not 2xx: the receiver's error code, what it means and the likely fix. */
  explanation: AnswerExplanation | undefined
}

/**
 * Signs one event and POSTs it to a receiver, as the service would; resolves with what came back.
 * A redirect is the answer (its `location` given), never followed: the signed delivery goes to `url`
 * only. Rejects only when no answer arrived (connection refused, timeout).
 *
 * @example
 * const result = await sendWebhook('http://127.0.0.1:3000/webhooks', events.gesture(), { secret })
 * expect(result.status).toBe(200)
 * expect(result.vibe).toMatchObject({ kind: 'vibe' })
 */
export async function sendWebhook(
  url: string,
  event: unknown,
  options: SendWebhookOptions,
): Promise<SendWebhookResult> {
  const { body, headers } = await signEvent({
    secret: options.secret,
    payload: event,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  })
  const started = performance.now()
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, ...options.headers },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  })
  const { text, cut } = await readAnswer(response, options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES)
  const latencyMs = Math.round((performance.now() - started) * 10) / 10
  return {
    status: response.status,
    ok: response.ok,
    latencyMs,
    headers: Object.fromEntries(response.headers),
    body: text,
    cut,
    location: isRedirect(response.status) ? (response.headers.get('location') ?? undefined) : undefined,
    reply: parseJson(text),
    vibe: eventName(event) === 'gesture' ? checkGestureReply(response.ok ? text : null) : undefined,
    explanation: response.ok ? undefined : explainAnswer(response.status, text),
  }
}

/** A receiver's reply is a few hundred bytes; far more is a page from something else in the way. */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024

const isRedirect = (status: number) => status >= 300 && status < 400

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return null
  }
}

function eventName(event: unknown): string | undefined {
  const value = typeof event === 'string' ? parseJson(event) : event
  const name = (value as { event?: unknown } | null)?.event
  return typeof name === 'string' ? name : undefined
}
