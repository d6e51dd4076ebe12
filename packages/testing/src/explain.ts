/** What a receiver's answer means, and what to change when it is not an acknowledgement. */
export interface AnswerExplanation {
  /** The receiver's error code when its body has one (`{ error: { code } }`, as ringhook answers). */
  code: string | undefined
  /** One sentence: what the answer says. */
  meaning: string
  /** One sentence: the likely fix, when there is one. */
  fix: string | undefined
}

type Advice = { meaning: string; fix?: string }

// Keyed by ringhook's error codes, which are a stable part of its API.
const BY_CODE: Record<string, Advice> = {
  unauthorized: {
    meaning: 'the receiver rejected the signature or the timestamp',
    fix: 'check the secret (the service regenerates it whenever the webhook URL changes), that the server clock is in sync, and that nothing re-serialises the body before ringhook reads it',
  },
  body_already_parsed: {
    meaning: 'a body parser consumed the request before ringhook could read the raw bytes',
    fix: 'mount the webhook route before the JSON parser (Express: before app.use(express.json())), or have the parser keep the raw bytes; the receiver log names the fix for your framework',
  },
  invalid_json: { meaning: 'the receiver could not parse the body as JSON' },
  invalid_payload: {
    meaning: 'the body does not match the webhook schema the receiver knows',
    fix: 'check that the receiver runs a current @ringhook/core; its log lists the fields it refused',
  },
  unsupported_media_type: {
    meaning: 'the receiver wants Content-Type application/json',
    fix: 'check that no proxy rewrites the Content-Type header',
  },
  payload_too_large: {
    meaning: 'the body is larger than the receiver accepts',
    fix: 'raise maxBodyBytes, or the body limit of the proxy or framework in front of it',
  },
  method_not_allowed: { meaning: 'the receiver answered that webhooks are delivered with POST' },
  not_found: {
    meaning: 'a ringhook receiver answered, but it is mounted at another path',
    fix: 'post to the path the adapter is mounted at (default /webhooks), and check that a proxy forwards it unchanged',
  },
  handler_error: {
    meaning: 'a handler threw, or a gesture handler returned a reply that breaks the trigger rules',
    fix: 'read the receiver log: it names the handler error or the rule the reply broke',
  },
  deadline_exceeded: {
    meaning: 'the handlers did not finish before the receiver deadline',
    fix: 'make the handler faster, or move slow work to a queue (@ringhook/bullmq)',
  },
  delivery_in_progress: { meaning: 'the same delivery is still being handled; the service will retry' },
  store_unavailable: {
    meaning: 'the dedup store failed or is full',
    fix: 'check the store (Redis) is reachable; for the memory store, raise its memory budget as the receiver log says',
  },
  secret_unavailable: {
    meaning: 'the receiver has no secret to check with: its secret resolver threw or returned nothing',
    fix: 'set the variable the resolver reads (RING_WEBHOOK_SECRET) where the app runs; the receiver log names the problem',
  },
  internal_error: {
    meaning: 'the receiver failed outside the handlers (a bug in ringhook, or an instrumentation or logger that threw)',
    fix: 'read the receiver log: the line "Unexpected failure in the webhook pipeline" names the error',
  },
  shutting_down: { meaning: 'the receiver is shutting down; the service will retry' },
}

const BY_STATUS: Record<number, Advice> = {
  401: BY_CODE.unauthorized as Advice,
  403: { meaning: 'something in front of the receiver refused the request', fix: 'check proxy or firewall rules' },
  404: {
    meaning: 'nothing answers POST at this path',
    fix: 'check the URL path against where the receiver is mounted, and the proxy rules in front of it',
  },
  405: { meaning: 'the server does not accept POST at this path', fix: 'check the route is registered for POST' },
  413: BY_CODE.payload_too_large as Advice,
  415: BY_CODE.unsupported_media_type as Advice,
  502: { meaning: 'a proxy could not reach the app', fix: 'check that the app is running behind the proxy' },
  504: { meaning: 'a proxy gave up waiting for the app', fix: 'check the app answers within the proxy timeout' },
}

/**
 * Explains a receiver's answer: its error code (when it has one), what it means, and the likely fix.
 *
 * @example
 * const { code, meaning, fix } = explainAnswer(401, '{"error":{"code":"unauthorized"}}')
 */
export function explainAnswer(status: number, body: string): AnswerExplanation {
  const code = errorCode(body)
  if (status >= 200 && status < 300) return { code, meaning: 'acknowledged', fix: undefined }
  const advice = (code ? BY_CODE[code] : undefined) ?? BY_STATUS[status]
  if (advice) return { code, meaning: advice.meaning, fix: advice.fix }
  if (status >= 300 && status < 400) {
    return {
      code,
      meaning: 'the server answered with a redirect',
      fix: 'configure the final URL as the webhook URL: a redirect is not an acknowledgement',
    }
  }
  return { code, meaning: status >= 500 ? 'the server failed' : 'the server refused the request', fix: undefined }
}

function errorCode(body: string): string | undefined {
  if (!body.startsWith('{')) return undefined
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
