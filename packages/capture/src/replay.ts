import type { CapturedDelivery, CaptureOutcome } from '@ringhook/core/capture'
import { readAnswer } from '@ringhook/core/internal'
import { signWebhook } from '@ringhook/core/signature'

/** Where and how {@link replay} sends captured deliveries. */
export interface ReplayOptions {
  /** The receiver to send them to (a local build, a staging app, a running example). */
  url: string
  /** The target's webhook secret: each delivery is signed again with it and a fresh timestamp. */
  secret: string
  /** Send nothing: the summary lists what would be sent. */
  dryRun?: boolean
  /**
   * Also send the records of unauthenticated deliveries (refused before or at their signature
   * check: anyone can send those, so replaying one signs a stranger's body with `secret`). Default
   * `false`: they are skipped, with a reason; `unauthenticated` in the summary counts those sent.
   */
  includeUnauthenticated?: boolean
  /**
   * Changes a payload before it is signed: gets the body as text, returns the body to send. Not
   * called for a body captured as base64 (not UTF-8), which is sent as it came.
   */
  edit?: (body: string, record: CapturedDelivery) => string | Promise<string>
  /** The clock the timestamps are read from, in milliseconds. Default `Date.now`. */
  now?: () => number
  /** The `fetch` to send with. Default the global one. */
  fetch?: typeof fetch
  /** Gives up on one answer after this long, in milliseconds. Default 30 s (the service's limit). */
  timeoutMs?: number
  /** Reads at most this many bytes of each answer and drops the rest (`cut` says so). Default 64 KiB. */
  maxAnswerBytes?: number
}

/** One request replay sends, or would send in a dry run. */
export interface ReplayRequest {
  /** The target URL. */
  url: string
  /** The request's headers: the content type and the fresh signature and timestamp. */
  headers: Record<string, string>
  /** The body, as text; a base64 capture's bytes are sent as they came. */
  body: string
  /** How the body is spelled: `base64` for a body that was not UTF-8. */
  encoding: 'utf8' | 'base64'
}

/** What became of one captured delivery. */
export interface ReplayResult {
  /** The record's id. */
  id: string
  /** The event's name, when it was one. */
  event: string | undefined
  /** What it came to when it arrived. */
  original: {
    /** The status it was answered. */
    status: number
    /** What it came to. */
    outcome: CaptureOutcome
    /** The error code, for a refused or failed delivery. */
    code: string | undefined
  }
  /** What was sent (or would be, in a dry run). */
  request: ReplayRequest
  /** The target's answer; absent in a dry run or when nothing answered. */
  answer?: {
    /** The HTTP status. */
    status: number
    /** The body, as text: its first `maxAnswerBytes` when it was longer (see `cut`). */
    body: string
    /** The body was longer than `maxAnswerBytes`: `body` holds its first bytes, the rest was not read. */
    cut: boolean
    /** For a redirect (3xx): its `Location`. The redirect is the answer; it is not followed. */
    location?: string
    /** Answered as a duplicate (`x-ringhook-duplicate: true`): the target had handled it before. */
    duplicate: boolean
  }
  /** Why nothing answered (refused connection, timeout). */
  error?: string
  /**
   * The delivery was not authenticated when it arrived (`authentic: false`; in an older record
   * without that field, refused with a code answered at or before the signature check): anyone
   * could have sent it. Such a record is sent only with `includeUnauthenticated`.
   */
  unauthenticated: boolean
  /**
   * Why it was not sent: it was not authenticated (and `includeUnauthenticated` was not given), or
   * its body was not captured whole (`request.cut`: a stranger's body cut to a prefix, or one left
   * out because its personal fields could not be removed).
   */
  skipped?: string
}

/** What a replay did: each delivery's result, in order, and the answers counted by status. */
export interface ReplaySummary {
  /** One per captured delivery, in the order given. */
  results: ReplayResult[]
  /** How many requests were sent (0 in a dry run). */
  sent: number
  /** How many of those sent were unauthenticated deliveries' (only with `includeUnauthenticated`). */
  unauthenticated: number
  /** Answers counted by HTTP status (`"200": 3`); `"error"` counts those that got none, `"skipped"` those not sent. */
  statuses: Record<string, number>
}

/**
 * Sends captured deliveries to a receiver, one after another in the order given, each signed again
 * with `secret` and a fresh timestamp (the captured signature is redacted, and stale anyway). Each
 * goes to `url` only: a redirect is its answer (with its `location`), never followed. A delivery
 * that was not authenticated when it arrived is skipped unless `includeUnauthenticated` is set:
 * signing it would make a stranger's request (a forgery) one the target trusts.
 *
 * @example
 * const records = await readCaptures('captures/deliveries.jsonl', { outcome: 'failed' })
 * const summary = await replay(records, { url: 'http://localhost:3000/webhooks', secret: 'whsec_local' })
 * console.log(summary.statuses) // { '200': 12 }
 */
export async function replay(records: readonly CapturedDelivery[], options: ReplayOptions): Promise<ReplaySummary> {
  const send = options.fetch ?? fetch
  const now = options.now ?? Date.now
  const summary: ReplaySummary = { results: [], sent: 0, unauthenticated: 0, statuses: {} }
  for (const record of records) {
    const request = await prepare(record, options, now)
    const unauthenticated = isUnauthenticated(record)
    const result: ReplayResult = {
      id: record.id,
      event: record.event,
      original: { status: record.answer.status, outcome: record.outcome, code: record.code },
      request,
      unauthenticated,
    }
    summary.results.push(result)
    const skipped = whyNotSent(record, unauthenticated, options)
    if (skipped !== undefined) {
      result.skipped = skipped
      summary.statuses.skipped = (summary.statuses.skipped ?? 0) + 1
      continue
    }
    if (options.dryRun) continue
    summary.sent++
    if (unauthenticated) summary.unauthenticated++
    const timeoutMs = options.timeoutMs ?? 30_000
    const signal = AbortSignal.timeout(timeoutMs)
    try {
      const response = await send(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.encoding === 'base64' ? Buffer.from(request.body, 'base64') : request.body,
        redirect: 'manual',
        signal,
      })
      const { text, cut } = await readAnswer(response, options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES)
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null
      result.answer = {
        status: response.status,
        body: text,
        cut,
        ...(location === null ? {} : { location }),
        duplicate: response.headers.get('x-ringhook-duplicate') === 'true',
      }
    } catch (error) {
      result.error = signal.aborted
        ? `timed out: no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? describeFailure(error)
          : String(error)
    }
    const key = result.answer ? String(result.answer.status) : 'error'
    summary.statuses[key] = (summary.statuses[key] ?? 0) + 1
  }
  return summary
}

/**
 * Codes a receiver answers before or at the signature check: a record written before captures said
 * `authentic` is a stranger's when it was refused with one of them.
 */
const BEFORE_AUTHENTICATION = new Set([
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'body_timeout',
  'body_incomplete',
  'unsupported_media_type',
  'unauthorized',
  'secret_unavailable',
])

/** Whether a captured delivery was refused before or at its signature check: anyone could have sent it. */
function isUnauthenticated(record: CapturedDelivery): boolean {
  if (record.authentic !== undefined) return !record.authentic
  return record.outcome === 'refused' && record.code !== undefined && BEFORE_AUTHENTICATION.has(record.code)
}

/** Why a record is not sent, or `undefined` when it is. */
function whyNotSent(record: CapturedDelivery, unauthenticated: boolean, options: ReplayOptions): string | undefined {
  // A body not captured whole cannot be sent even when asked: that reason comes first.
  const cut = record.request.cut
  if (cut === 'prefix') return `only the first bytes of its body were captured (${record.request.bytes} arrived)`
  if (cut === 'unscanned') return 'its body was left out: personal fields could not be removed from it'
  if (unauthenticated && !options.includeUnauthenticated)
    return 'it was not authenticated when it arrived (anyone could have sent it); includeUnauthenticated sends it'
  return undefined
}

/** A failed fetch's message, with its cause's ("fetch failed" alone says nothing). */
function describeFailure(error: Error): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  const why = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : ''
  return why === '' ? error.message : `${error.message}: ${why}`
}

/** A receiver's answer is a few hundred bytes; far more is a page from something else in the way. */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024

/** The request for one record: its body (edited), signed now. */
async function prepare(record: CapturedDelivery, options: ReplayOptions, now: () => number): Promise<ReplayRequest> {
  const { encoding } = record.request
  let body = record.request.body
  if (encoding === 'utf8' && options.edit) body = await options.edit(body, record)
  const bytes = encoding === 'base64' ? Buffer.from(body, 'base64') : body
  const { headers } = await signWebhook({ secret: options.secret, body: bytes, timestamp: Math.floor(now() / 1000) })
  const contentType = record.request.headers['content-type']
  return {
    url: options.url,
    headers: contentType ? { ...headers, 'content-type': contentType } : headers,
    body,
    encoding,
  }
}

/**
 * Applies a JSON Merge Patch (RFC 7396) to a JSON body: objects merge, `null` removes a field,
 * anything else replaces. For scripted edits (`ringhook replay --edit patch.json`).
 *
 * @example
 * mergePatch('{"gesture_type":"tap","data":{}}', { gesture_type: 'double_tap' }) // '{"gesture_type":"double_tap","data":{}}'
 */
export function mergePatch(body: string, patch: unknown): string {
  return JSON.stringify(merge(JSON.parse(body), patch))
}

function merge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else out[key] = merge(out[key], value)
  }
  return out
}
