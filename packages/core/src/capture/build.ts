import { sha256HexOfBytes } from '../crypto/sha256.js'
import type { AnsweredDelivery } from '../receiver/outlet.js'
import type { HeaderInput } from '../signature/headers.js'
import { toBase64 } from './base64.js'
import type { ResolvedCaptureOptions } from './options.js'
import { hashInText, mayHoldPersonal, type PersonalFields, removePersonal } from './personal.js'
import { CAPTURE_FORMAT_VERSION, type CapturedDelivery, type CaptureOutcome } from './record.js'

/** A finished delivery waiting to be written as a record, with the facts read when it was answered. */
export interface Finished {
  readonly delivery: AnsweredDelivery
  readonly outcome: CaptureOutcome
  readonly signatureHeader: string
  /** Whether its signature checked out. */
  readonly authentic: boolean
  /** What it counts against the byte budget. */
  readonly size: number
}

const REDACTED = '[redacted]'
// Every answer carries these two, always the same: not worth a record's room.
const CONSTANT_ANSWER_HEADERS = new Set(['content-type', 'cache-control'])
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
// For looking for a field's name in bytes that are not all UTF-8.
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true })
const utf8Encoder = new TextEncoder()

/**
 * Turns a finished delivery into its record: headers redacted, body encoded, personal fields removed.
 * Plain assignments, no spreads or closures: it runs for every captured delivery (with the record's
 * JSON, 5.5 against 6.8–8.2 µs with spreads, in one process; bench/HISTORY.md, 2026-11-27).
 */
export function buildRecord(finished: Finished, options: ResolvedCaptureOptions): CapturedDelivery {
  const { delivery, outcome } = finished
  const { request } = delivery
  const answer = delivery.response
  const parsed = delivery.event.event !== ''
  const record: CapturedDelivery = {
    v: CAPTURE_FORMAT_VERSION,
    id: crypto.randomUUID(),
    receivedAt: isoTime(delivery.receivedAtMs),
    request: requestOf(request.method, requestHeaders(request.headers, finished.signatureHeader, options)),
    answer: { status: answer.status, headers: answerHeaders(answer.headers), body: answer.body },
    outcome,
  }
  if (parsed) record.event = delivery.event.event
  encodeBody(record.request, finished, parsed, options)
  if (outcome === 'refused' || outcome === 'failed') record.code = delivery.outcome
  record.authentic = finished.authentic
  return record
}

type RequestRecord = CapturedDelivery['request']

/** The request's part, with its body fields in place for {@link encodeBody} to fill. */
const requestOf = (method: string, headers: Record<string, string>): RequestRecord => ({
  method,
  headers,
  body: '',
  encoding: 'utf8',
  bytes: 0,
})

let second = Number.NaN
let secondText = ''

/**
 * `new Date(ms).toISOString()`, with the text up to the second kept from the record before: records
 * of one second share it. 0.3 against 1.3 µs a record on Node 20.
 */
function isoTime(at: number): string {
  const ms = Math.floor(at)
  const s = Math.floor(ms / 1000)
  if (s !== second || !(ms >= 0)) {
    const iso = new Date(ms).toISOString()
    if (!(ms >= 0) || iso.length !== 24) return iso
    second = s
    secondText = iso.slice(0, 20)
  }
  return `${secondText}${String(ms - s * 1000).padStart(3, '0')}Z`
}

/**
 * Fills in the body: as UTF-8 text, or base64 when it is not UTF-8 or holds control characters;
 * personal fields removed. An unauthenticated body past `bodyBytes` keeps its first bytes only. A
 * body that may hold a personal field it cannot be rid of is left out (`cut: 'unscanned'`).
 */
function encodeBody(out: RequestRecord, finished: Finished, parsed: boolean, options: ResolvedCaptureOptions): void {
  const { bytes, event } = finished.delivery
  out.bytes = bytes.length
  const personal = options.personal
  const limit = finished.authentic ? Number.POSITIVE_INFINITY : options.unauthenticated.bodyBytes
  if (bytes.length > limit) {
    // A cut body cannot be parsed: kept only when it names no personal field.
    const prefix = bytes.subarray(0, limit)
    if (personal !== undefined && mayHoldPersonal(lenientUtf8.decode(prefix), personal)) unscanned(out, bytes)
    else setBody(out, prefix, utf8Prefix(prefix), 'prefix', bytes)
    return
  }
  const text = utf8(bytes)
  if (personal === undefined || !mayHoldPersonal(text ?? lenientUtf8.decode(bytes), personal)) {
    setBody(out, bytes, text)
    return
  }
  const rewritten = text === undefined ? UNSCANNED : withoutPersonal(text, event, parsed, personal, options.salt)
  if (rewritten === UNSCANNED) unscanned(out, bytes)
  else if (rewritten === text) setBody(out, bytes, text)
  else {
    out.personal = options.personalNote
    setBody(out, bytes, rewritten)
  }
}

/**
 * Stores the text, or as base64 when JSON would spell it six bytes a character (the text's own
 * bytes: never those of a body it was rewritten from); `bytes` as base64 when there is no text.
 */
function setBody(
  out: RequestRecord,
  bytes: Uint8Array,
  text: string | undefined,
  cut?: 'prefix',
  whole?: Uint8Array,
): void {
  if (text === undefined || CONTROL.test(text)) {
    out.body = toBase64(text === undefined ? bytes : utf8Encoder.encode(text))
    out.encoding = 'base64'
  } else out.body = text
  if (cut !== undefined && whole !== undefined) {
    out.cut = cut
    out.sha256 = sha256HexOfBytes(whole)
  }
}

/** Leaves the body out: it may hold a personal field that could not be found in it. */
function unscanned(out: RequestRecord, bytes: Uint8Array): void {
  out.body = ''
  out.cut = 'unscanned'
  out.sha256 = sha256HexOfBytes(bytes)
}

// Characters JSON.stringify writes as \uXXXX: a body of them would take six times its size.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** A prefix's text, without the part of a character it cut (up to 3 bytes); `undefined` when not UTF-8. */
function utf8Prefix(prefix: Uint8Array): string | undefined {
  for (let drop = 0; drop <= 3 && drop < prefix.length; drop++) {
    const text = utf8(prefix.subarray(0, prefix.length - drop))
    if (text !== undefined) return text
  }
  return undefined
}

const UNSCANNED = Symbol('unscanned')

/** The body's text without its personal fields (the same text when it holds none), or UNSCANNED when they cannot be found. */
function withoutPersonal(
  text: string,
  event: unknown,
  parsed: boolean,
  personal: PersonalFields,
  salt: string,
): string | typeof UNSCANNED {
  // The receiver parsed it, so it is valid JSON: hashed where the values stand, when it can be.
  const hashed = parsed ? hashInText(text, personal, salt) : undefined
  if (hashed !== undefined) return hashed
  // An authentic event was parsed by the receiver; a refused body (a wrong secret, a bad payload)
  // can hold the same fields, so it is read here as JSON.parse reads it.
  const value = parsed ? event : parseJson(text)
  // Not JSON, yet it names a personal field: nothing to find it by.
  if (value === NOT_JSON) return UNSCANNED
  try {
    return removePersonal(value, personal, salt) ?? text
  } catch {
    // Nested deeper than the walk's stack (a forged body can be): it cannot be rid of the fields.
    return UNSCANNED
  }
}

const NOT_JSON = Symbol('not JSON')

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return NOT_JSON
  }
}

function requestHeaders(
  headers: HeaderInput,
  signatureHeader: string,
  options: ResolvedCaptureOptions,
): Record<string, string> {
  const out: Record<string, string> = {}
  // The signature always: it is what a stranger would need, whatever the list says.
  const redactSignature = signatureHeader.toLowerCase()
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    ;(headers as Headers).forEach((value, name) => {
      out[name] = redacted(name, redactSignature, options) ? REDACTED : value
    })
    return out
  }
  const plain = headers as Record<string, string | readonly string[] | undefined>
  for (const name in plain) {
    const value = plain[name]
    if (value === undefined || !Object.hasOwn(plain, name)) continue
    const lower = name.toLowerCase()
    out[lower] = redacted(lower, redactSignature, options) ? REDACTED : headerText(value)
  }
  return out
}

/** A header's value as text: a list joined as HTTP joins it; anything else an untyped caller passed, as `String()` reads it. */
const headerText = (value: string | readonly string[]): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : String(value)

const redacted = (lower: string, signatureHeader: string, options: ResolvedCaptureOptions): boolean =>
  options.redact.has(lower) || lower === signatureHeader

function answerHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name in headers) {
    if (Object.hasOwn(headers, name) && !CONSTANT_ANSWER_HEADERS.has(name)) out[name] = headers[name] as string
  }
  return out
}
