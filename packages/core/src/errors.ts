/**
 * Every answer the receiver gives that is not a success, with its status and a stable code.
 * Codes are part of the public API: clients, dashboards and tests may switch on them.
 */
export const ERRORS = {
  not_found: { status: 404, message: 'No webhook receiver is mounted at this path.' },
  method_not_allowed: { status: 405, message: 'Webhooks are delivered with POST.' },
  payload_too_large: { status: 413, message: 'The body is larger than this receiver accepts.' },
  body_timeout: { status: 408, message: 'The body did not arrive in time.' },
  // The sender went away (or broke the stream) mid-body; nobody may be left to read this answer.
  body_incomplete: { status: 400, message: 'The body ended before it was complete.' },
  unsupported_media_type: { status: 415, message: 'The body must be application/json.' },
  // One generic answer for every authentication failure; the precise reason goes to the log only.
  unauthorized: { status: 401, message: 'Webhook signature verification failed.' },
  invalid_json: { status: 400, message: 'The body is not valid JSON.' },
  invalid_payload: { status: 400, message: 'The payload does not match the webhook schema.' },
  body_already_parsed: { status: 500, message: 'The webhook receiver is misconfigured.' },
  delivery_in_progress: { status: 409, message: 'This delivery is being processed; retry later.' },
  secret_unavailable: { status: 503, message: 'The webhook secret could not be loaded; retry later.' },
  store_unavailable: { status: 503, message: 'Deduplication is unavailable; retry later.' },
  // Every entry is still inside its dedup window: forgetting one could handle a delivery twice.
  store_full: { status: 503, message: 'Deduplication is at capacity; retry later.' },
  handler_error: { status: 500, message: 'The webhook handler failed; retry later.' },
  // A bug in ringhook, or an instrumentation or logger that threw: no handler is to blame.
  internal_error: { status: 500, message: 'The webhook receiver failed unexpectedly; retry later.' },
  deadline_exceeded: { status: 503, message: 'The webhook handler did not finish in time; retry later.' },
  // After `receiver.close()`: the service retries, reaching another instance or this one restarted.
  shutting_down: { status: 503, message: 'This receiver is shutting down; retry later.' },
} as const satisfies Record<string, { status: number; message: string }>

/** The stable code of a refusal or failure: a key of {@link ERRORS}. */
export type ErrorCode = keyof typeof ERRORS

/** Where in the pipeline an error reported to `onError` happened. */
export type ErrorPhase = 'handler' | 'reply' | 'after_reply' | 'store' | 'error_handler'

/** An error raised inside the receiver, reported to `onError` and the logger. */
export class RinghookError extends Error {
  /** Always `'RinghookError'`. */
  override readonly name = 'RinghookError'
  constructor(
    /** What went wrong, as in {@link ERRORS}. */
    readonly code: ErrorCode,
    message: string,
    /** Where it happened. */
    readonly phase: ErrorPhase,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** Thrown by `createReceiver` and friends on a configuration that cannot work. */
export class RinghookConfigError extends Error {
  /** Always `'RinghookConfigError'`. */
  override readonly name = 'RinghookConfigError'
}

/** A loggable description of anything thrown, without dumping whole objects. */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
