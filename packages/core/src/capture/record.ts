import * as z from 'zod/mini'

/** The version of the capture format written in every record's `v`. */
export const CAPTURE_FORMAT_VERSION = 1

/**
 * What a captured delivery came to: `accepted` (answered 2xx by its handlers, or acknowledged at the
 * deadline), `duplicate` (a stored reply replayed), `refused` (the receiver turned it away: a bad
 * signature, body or payload, a copy in progress, a full store...), `failed` (a handler failed,
 * the deadline passed with `onDeadline: 'retry'`, or the receiver itself failed).
 */
export const captureOutcomeSchema = z.enum(['accepted', 'duplicate', 'refused', 'failed'])
/** See {@link captureOutcomeSchema}. */
export type CaptureOutcome = z.infer<typeof captureOutcomeSchema>

const headersSchema = z.record(z.string(), z.string())

/**
 * One captured delivery, as every sink stores it and replay reads it (one line of a JSON Lines
 * file, one Redis stream entry, one Postgres row).
 *
 * `request.body` is the body as it arrived, as UTF-8 text (`encoding: 'utf8'`) or, when it is not
 * valid UTF-8 or holds control characters (which JSON spells in six bytes each), as base64. When
 * personal fields were hashed or dropped (`request.personal` is set), the body was parsed and written
 * again without them: its bytes are not those that arrived, and replay signs what it sends anyway.
 * When it is not the whole body, `request.cut` says why and `request.sha256` is the whole body's
 * digest. Redacted headers (the signature always) read `[redacted]`.
 */
export const capturedDeliverySchema = z.object({
  /** The format's version, {@link CAPTURE_FORMAT_VERSION}. */
  v: z.literal(CAPTURE_FORMAT_VERSION),
  /** A random id, unique to this record. */
  id: z.string().check(z.minLength(1)),
  /** When the delivery arrived, ISO 8601. */
  receivedAt: z.string(),
  /** The event's name, when the body was authentic JSON of an event. */
  event: z.optional(z.string()),
  /** The request as it arrived. */
  request: z.object({
    method: z.string(),
    /** Header names in lower case; redacted ones read `[redacted]`. */
    headers: headersSchema,
    body: z.string(),
    encoding: z.enum(['utf8', 'base64']),
    /** The body's size in bytes as it arrived. */
    bytes: z.number().check(z.int(), z.nonnegative()),
    /** Set when personal fields were hashed or dropped: the body was written again without them. */
    personal: z.optional(z.object({ action: z.enum(['hash', 'drop']), fields: z.array(z.string()) })),
    /**
     * Set when `body` is not the whole body: `prefix`, its first bytes only (an unauthenticated
     * delivery's body past the capture's `unauthenticated.bodyBytes`); `unscanned`, left out, since
     * personal fields could not be looked for in it (not JSON, not UTF-8, or nested too deep).
     */
    cut: z.optional(z.enum(['prefix', 'unscanned'])),
    /** With `cut`: the hex SHA-256 of the whole body as it arrived. */
    sha256: z.optional(z.string()),
  }),
  /** The receiver's answer: its status, body, and the headers that vary (not the content type). */
  answer: z.object({ status: z.number().check(z.int()), headers: headersSchema, body: z.string() }),
  /** What the delivery came to. */
  outcome: captureOutcomeSchema,
  /** The error code answered, for a refused or failed delivery (as in `ERRORS`). */
  code: z.optional(z.string()),
  /**
   * Whether the delivery's signature checked out: `false` for one refused before (a wrong method, a
   * body too large) or at the signature check, which anyone can send. Absent in older records.
   */
  authentic: z.optional(z.boolean()),
})

/** See {@link capturedDeliverySchema}. */
export type CapturedDelivery = z.infer<typeof capturedDeliverySchema>
