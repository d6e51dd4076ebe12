/**
 * The hand-rolled route on Web APIs only (Workers, Bun, Deno, Node's fetch hosts): what a user
 * writes from the service's docs with Web Crypto. HMAC-SHA256 over `${timestamp}.${body}` checked
 * by `crypto.subtle.verify` (constant time), the 300 s window, JSON.parse, the payload's fields
 * checked and a delivery seen before acknowledged without handling (./checks.ts: what the spec
 * asks of every receiver), and a gesture answered with the same vibe the ringhook apps answer with.
 */
import { deliveryKey, isValidEvent, SeenDeliveries } from './checks.js'

const TOLERANCE_SECONDS = 300
/** As long as ringhook's default dedup window (15 minutes). */
const DEDUP_TTL_MS = 15 * 60_000
const encoder = new TextEncoder()
const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length !== 64 || !/^[0-9a-f]+$/i.test(hex)) return undefined
  const bytes = new Uint8Array(32)
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/** A Fetch handler for `secret`; the key is imported once, on the first delivery. */
export function handRolledWebRoute(secret: string): (request: Request) => Promise<Response> {
  let key: Promise<CryptoKey> | undefined
  const seen = new SeenDeliveries(DEDUP_TTL_MS)
  return async (request) => {
    const signature = request.headers.get('x-service-signature') ?? ''
    const timestamp = request.headers.get('x-service-timestamp') ?? ''
    const sentAt = Number(timestamp)
    const given = signature.startsWith('sha256=') ? hexBytes(signature.slice(7)) : undefined
    if (!given || !Number.isInteger(sentAt) || Math.abs(Date.now() / 1000 - sentAt) > TOLERANCE_SECONDS) {
      return json({ error: 'unauthorized' }, 401)
    }
    const body = new Uint8Array(await request.arrayBuffer())
    const signed = new Uint8Array(timestamp.length + 1 + body.length)
    signed.set(encoder.encode(`${timestamp}.`))
    signed.set(body, timestamp.length + 1)
    key ??= crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    if (!(await crypto.subtle.verify('HMAC', await key, given, signed))) return json({ error: 'unauthorized' }, 401)
    let event: unknown
    try {
      event = JSON.parse(new TextDecoder().decode(body))
    } catch {
      return json({ error: 'invalid_json' }, 400)
    }
    if (!isValidEvent(event)) return json({ error: 'invalid_payload' }, 400)
    // A duplicate is acknowledged and not handled again.
    if (!seen.firstTime(deliveryKey(event)) || event.event !== 'gesture') return json({ ok: true })
    return json({
      success: true,
      vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message: `Got ${event.gesture_type}` },
    })
  }
}
