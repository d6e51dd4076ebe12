import { createHmac } from 'node:crypto'
import { DEFAULT_TOLERANCE_SECONDS } from '@ringhook/core/signature'
import type { JsonObject } from './json-schema.js'

// Signed test vectors for the service's webhook signature (spec section 5): what any implementation
// of a sender or a receiver can check itself against. The signatures are computed here with
// node:crypto, from the spec's words, not with ringhook's own signer: core's tests check that its
// verifier agrees with every case, so either one drifting fails.

const NOW = 1_800_000_000
const SECRET = 'whsec_vectors_4f8a2c'
const OLD_SECRET = 'whsec_vectors_previous'

/** `sha256=` and the lowercase hex HMAC-SHA256 of `${timestamp}.${body}`, over the body's UTF-8 bytes. */
const sign = (secret: string, timestamp: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`

const gesture = JSON.stringify({
  event: 'gesture',
  gesture_type: 'double_tap',
  user_app_id: '5b0c2f3e-8d4a-4e1b-9c6f-1a2b3c4d5e6f',
  app_id: 'app_vectors',
  timestamp: '2027-01-15T08:00:00.000Z',
  data: {},
})
const responded = JSON.stringify({
  event: 'notification.responded',
  user_app_id: '5b0c2f3e-8d4a-4e1b-9c6f-1a2b3c4d5e6f',
  app_id: 'app_vectors',
  timestamp: '2027-01-15T08:00:00.000Z',
  data: { event_id: 'evt_vectors_1', response: 'emoji:👍' },
})
const pretty = JSON.stringify(JSON.parse(gesture), null, 2)
const unicode = JSON.stringify({ ...JSON.parse(gesture), external_user_id: 'Zoë 佐藤 👩🏽‍💻' })
const composed = 'Zo\u00eb' // é as one code point
const decomposed = 'Zoe\u0308' // e and a combining diaeresis: the same text to a reader, other bytes

interface Case {
  name: string
  valid: boolean
  reason: string
  secrets?: string[]
  now?: number
  timestamp?: string | null
  body: string
  signature: string | null
  /** The secret a valid case was signed with, when not the first of `secrets`. */
  signed_with?: string
  /** ringhook's `VerifyFailureReason` for an invalid case: informative, for ringhook's own tests. */
  ringhook_reason?: string
}

const ts = String(NOW)

function cases(): Case[] {
  const good = sign(SECRET, ts, gesture)
  return [
    // ---- valid ----
    {
      name: 'minimal',
      valid: true,
      reason:
        "The smallest case, to check by hand: printf '1700000000.{}' | openssl dgst -sha256 -hmac secret prints this digest.",
      secrets: ['secret'],
      now: 1_700_000_000,
      timestamp: '1700000000',
      body: '{}',
      signature: sign('secret', '1700000000', '{}'),
    },
    {
      name: 'gesture',
      valid: true,
      reason: 'A gesture as the service sends it: compact JSON, signed at the receiver’s current second.',
      body: gesture,
      signature: good,
    },
    {
      name: 'notification with an emoji answer',
      valid: true,
      reason: 'The body holds non-ASCII text: the HMAC is over its UTF-8 bytes.',
      body: responded,
      signature: sign(SECRET, ts, responded),
    },
    {
      name: 'unicode everywhere',
      valid: true,
      reason: 'Accents, CJK, an emoji with a skin tone and a zero-width joiner, all as raw UTF-8.',
      body: unicode,
      signature: sign(SECRET, ts, unicode),
    },
    {
      name: 'unicode escaped',
      valid: true,
      reason:
        'The same text written with \\u escapes is another body, with a signature of its own: verify the bytes, not the JSON value.',
      body: `{"name":"Zo\\u00eb"}`,
      signature: sign(SECRET, ts, `{"name":"Zo\\u00eb"}`),
    },
    {
      name: 'whitespace as sent',
      valid: true,
      reason:
        'Pretty-printed JSON with newlines is signed as it is sent; spaces and line breaks are part of the bytes.',
      body: pretty,
      signature: sign(SECRET, ts, pretty),
    },
    {
      name: 'empty body',
      valid: true,
      reason: 'The signature covers `{timestamp}.` alone. (A receiver then refuses the body as JSON, a later step.)',
      body: '',
      signature: sign(SECRET, ts, ''),
    },
    {
      name: 'rotation: the previous secret',
      valid: true,
      reason:
        'During a rotation the receiver holds the new and the previous secret; a delivery signed with either is authentic.',
      secrets: [SECRET, OLD_SECRET],
      signed_with: OLD_SECRET,
      body: gesture,
      signature: sign(OLD_SECRET, ts, gesture),
    },
    {
      name: `timestamp ${DEFAULT_TOLERANCE_SECONDS} s old`,
      valid: true,
      reason: `The tolerance is ${DEFAULT_TOLERANCE_SECONDS} s either way, inclusive.`,
      timestamp: String(NOW - DEFAULT_TOLERANCE_SECONDS),
      body: gesture,
      signature: sign(SECRET, String(NOW - DEFAULT_TOLERANCE_SECONDS), gesture),
    },
    {
      name: `timestamp ${DEFAULT_TOLERANCE_SECONDS} s ahead`,
      valid: true,
      reason: 'A sender’s clock ahead of the receiver’s, inside the tolerance.',
      timestamp: String(NOW + DEFAULT_TOLERANCE_SECONDS),
      body: gesture,
      signature: sign(SECRET, String(NOW + DEFAULT_TOLERANCE_SECONDS), gesture),
    },
    // ---- invalid ----
    {
      name: 'wrong secret',
      valid: false,
      reason: 'Signed with another secret (an old one after the rotation ended, or another app’s).',
      body: gesture,
      signature: sign('whsec_someone_else', ts, gesture),
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'tampered body',
      valid: false,
      reason: 'One value changed after signing (`double_tap` to `long_press`).',
      body: gesture.replace('double_tap', 'long_press'),
      signature: good,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 're-serialised with whitespace',
      valid: false,
      reason: 'The same JSON value pretty-printed after signing, as a body parser that re-serialises would.',
      body: pretty,
      signature: good,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'keys reordered',
      valid: false,
      reason: 'The same JSON value with its keys in another order is other bytes.',
      body: JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(gesture)).reverse())),
      signature: good,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'trailing newline',
      valid: false,
      reason: 'A newline added after the body.',
      body: `${gesture}\n`,
      signature: good,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'unicode normalised',
      valid: false,
      reason: 'Signed with `ë` as one code point (NFC), sent decomposed (NFD): equal text, other bytes.',
      body: `{"name":"${decomposed}"}`,
      signature: sign(SECRET, ts, `{"name":"${composed}"}`),
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'unicode unescaped',
      valid: false,
      reason: 'Signed with a \\u escape, sent with the raw character: the same JSON value, other bytes.',
      body: `{"name":"${composed}"}`,
      signature: sign(SECRET, ts, `{"name":"Zo\\u00eb"}`),
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'timestamp header changed',
      valid: false,
      reason: 'The signature was made for another timestamp than the header carries (a replay with a fresh timestamp).',
      timestamp: String(NOW - 10),
      body: gesture,
      signature: good,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'signed without the period',
      valid: false,
      reason: 'HMAC of `{timestamp}{body}`: the period between them is part of the signed string.',
      body: gesture,
      signature: `sha256=${createHmac('sha256', SECRET).update(`${ts}${gesture}`, 'utf8').digest('hex')}`,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: 'body alone signed',
      valid: false,
      reason: 'HMAC of the body without the timestamp.',
      body: gesture,
      signature: `sha256=${createHmac('sha256', SECRET).update(gesture, 'utf8').digest('hex')}`,
      ringhook_reason: 'signature_mismatch',
    },
    {
      name: `timestamp ${DEFAULT_TOLERANCE_SECONDS + 1} s old`,
      valid: false,
      reason: `Outside the ${DEFAULT_TOLERANCE_SECONDS} s tolerance: a replayed request, or a receiver clock ahead. Correctly signed.`,
      timestamp: String(NOW - DEFAULT_TOLERANCE_SECONDS - 1),
      body: gesture,
      signature: sign(SECRET, String(NOW - DEFAULT_TOLERANCE_SECONDS - 1), gesture),
      ringhook_reason: 'timestamp_too_old',
    },
    {
      name: `timestamp ${DEFAULT_TOLERANCE_SECONDS + 1} s ahead`,
      valid: false,
      reason: `Outside the ${DEFAULT_TOLERANCE_SECONDS} s tolerance the other way: a receiver clock behind. Correctly signed.`,
      timestamp: String(NOW + DEFAULT_TOLERANCE_SECONDS + 1),
      body: gesture,
      signature: sign(SECRET, String(NOW + DEFAULT_TOLERANCE_SECONDS + 1), gesture),
      ringhook_reason: 'timestamp_in_future',
    },
    {
      name: 'timestamp in milliseconds',
      valid: false,
      reason:
        'The header is Unix seconds; read as seconds, milliseconds are a time some 57,000 years ahead. Correctly signed.',
      timestamp: `${NOW}000`,
      body: gesture,
      signature: sign(SECRET, `${NOW}000`, gesture),
      ringhook_reason: 'malformed_timestamp',
    },
    {
      name: 'timestamp not an integer',
      valid: false,
      reason: 'The header is whole Unix seconds. Correctly signed.',
      timestamp: `${NOW}.5`,
      body: gesture,
      signature: sign(SECRET, `${NOW}.5`, gesture),
      ringhook_reason: 'malformed_timestamp',
    },
    {
      name: 'timestamp missing',
      valid: false,
      reason: 'No timestamp header: nothing to check the age against.',
      timestamp: null,
      body: gesture,
      signature: good,
      ringhook_reason: 'missing_timestamp',
    },
    {
      name: 'signature missing',
      valid: false,
      reason: 'No signature header.',
      body: gesture,
      signature: null,
      ringhook_reason: 'missing_signature',
    },
    {
      name: 'no prefix',
      valid: false,
      reason: 'The hex digest without `sha256=`.',
      body: gesture,
      signature: good.slice('sha256='.length),
      ringhook_reason: 'malformed_signature',
    },
    {
      name: 'another algorithm',
      valid: false,
      reason: 'Only `sha256=` is defined; an HMAC-SHA1 (`sha1=`) is refused.',
      body: gesture,
      signature: `sha1=${createHmac('sha1', SECRET).update(`${ts}.${gesture}`, 'utf8').digest('hex')}`,
      ringhook_reason: 'malformed_signature',
    },
    {
      name: 'truncated signature',
      valid: false,
      reason: 'A digest cut to 63 hex digits: a prefix of the right signature is not the signature.',
      body: gesture,
      signature: good.slice(0, -1),
      ringhook_reason: 'malformed_signature',
    },
    {
      name: 'two signatures in one header',
      valid: false,
      reason:
        'The header holds one signature; a list (`sha256=…, sha256=…`, as when a proxy repeats the header) is refused even when one of them matches. Rotation is handled by the receiver trying each secret, not by several signatures.',
      body: gesture,
      signature: `${sign('whsec_someone_else', ts, gesture)}, ${good}`,
      ringhook_reason: 'malformed_signature',
    },
  ]
}

/** The vectors file: the scheme in words, and every case with its defaults filled in. */
export function signatureVectors(): JsonObject {
  return {
    description:
      'Signed test vectors for ring-haptics webhooks. For each case, a verifier holding `secrets` (any one may match), with its clock at `now` (Unix seconds) and a tolerance of `tolerance_seconds`, given `body` (the exact text of the request body, signed as its UTF-8 bytes) and the header values `signature` (X-SERVICE-Signature) and `timestamp` (X-SERVICE-Timestamp; null when the header is absent), must accept the request exactly when `valid` is true. A signer given a valid case’s `signed_with` secret, `timestamp` and `body` must produce `signature`. `reason` says why; `ringhook_reason` is the code ringhook’s verifier gives, for information.',
    scheme: {
      signature_header: 'X-SERVICE-Signature',
      timestamp_header: 'X-SERVICE-Timestamp',
      signed_string: '{timestamp}.{body}',
      algorithm: 'HMAC-SHA256, keyed with the secret’s UTF-8 bytes, over the signed string’s UTF-8 bytes',
      signature_format: 'sha256={64 lowercase hex digits}',
    },
    tolerance_seconds: DEFAULT_TOLERANCE_SECONDS,
    cases: cases().map(({ secrets = [SECRET], now = NOW, timestamp = ts, signed_with, ringhook_reason, ...rest }) => ({
      name: rest.name,
      valid: rest.valid,
      reason: rest.reason,
      secrets,
      now,
      timestamp,
      body: rest.body,
      signature: rest.signature,
      ...(rest.valid
        ? { signed_with: signed_with ?? secrets[0] ?? null }
        : { ringhook_reason: ringhook_reason ?? null }),
    })),
  }
}
