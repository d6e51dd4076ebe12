import * as z from 'zod/mini'
import type { Closed } from './closed.js'
import { isoTimestamp, notificationResponseSchema } from './event-schemas.js'
import { issueMessages } from './messages.js'
import { describedAs, ruleAsJsonSchema } from './refinements.js'
import { maxCharacters } from './text.js'
import { userStateSchema } from './user-state.js'
import { requireMessageWithNotification } from './vibe.js'
import { vibeMessageSchema, vibeSequenceSchema } from './vibe-schemas.js'

// The service's /v1 API (spec sections 2, 4 and 8), shared by @ringhook/client, which validates
// requests before sending them, and the simulator in @ringhook/testing, which serves them.

/** Limits of a trigger beyond the vibe itself. */
export const TRIGGER_LIMITS = Object.freeze({
  minTimeoutMs: 5000,
  maxTimeoutMs: 60000,
  defaultTimeoutMs: 30000,
  minOptions: 2,
  maxOptions: 5,
  maxLabelLength: 15,
})

/** Rate limits the service enforces (spec section 8). */
export const RATE_LIMITS = Object.freeze({
  requestsPerKey: { limit: 100, windowMs: 60_000 },
  vibesPerUser: { limit: 30, windowMs: 60_000 },
})

/**
 * How the service delivers a webhook (spec section 6, rule 3): it waits `ackTimeoutMs` for a 2xx, then
 * retries up to three times, after each of `retryDelaysMs`.
 */
export const WEBHOOK_DELIVERY = Object.freeze({
  ackTimeoutMs: 30_000,
  retryDelaysMs: Object.freeze([1000, 5000, 30_000] as const),
})

/** The `state` filter of the users list: a state, or `all`. */
export const userStateFilterSchema = z.enum(['active', 'passive', 'inactive', 'all'], issueMessages)
/** How a trigger's answer comes back: `webhook` (the default), `poll` or `await`. */
export const responseModeSchema = z.enum(['webhook', 'poll', 'await'], issueMessages)

// ---- Resources -------------------------------------------------------------------------------

// Every constructor gets `issueMessages`: zod/mini has no English of its own (see messages.ts).
const m = issueMessages
const nonEmpty = () => z.string(m).check(z.minLength(1))
/** A loose object (unknown fields kept), worded by `issueMessages`. */
const loose = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape, m)
/** A strict object (unknown fields refused), worded by `issueMessages`. */
const strict = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject(shape, m)

/** One installation of an app, as `GET /apps/:app_id/installs` lists it. */
export const installSchema = loose({
  user_app_id: z.string(m),
  is_active: z.boolean(m),
  installed_at: isoTimestamp,
})
/** The answer of `GET /apps/:app_id/installs`. */
export const installListSchema = loose({ installs: z.array(installSchema, m) })
/** The caller's own installation (`installs/@me`) also names the app. */
export const ownInstallSchema = z.extend(installSchema, { app_id: z.string(m) })

/** One user of an app and their state, as `GET /apps/:app_id/users` lists them. */
export const userSchema = loose({
  user_app_id: z.string(m),
  state: userStateSchema,
  installed_at: isoTimestamp,
})
/** The answer of `GET /apps/:app_id/users`. */
export const userListSchema = loose({ users: z.array(userSchema, m) })
/** Other permission keys are not documented; they are kept. */
export const permissionsSchema = loose({ vibes: z.boolean(m), gestures: z.boolean(m) })
/** One user with the app and their permissions: `GET /apps/:app_id/users/:user_app_id`. */
export const userDetailSchema = z.extend(userSchema, { app_id: z.string(m), permissions: permissionsSchema })

/** The patterns a vibe may use and its timing limits: `GET /vibes/patterns`. */
export const vibePatternsSchema = loose({
  patterns: z.array(z.string(m), m),
  max_sequence_length: z.int(m),
  timing: loose({
    min_delay_ms: z.int(m),
    max_delay_ms: z.int(m),
    default_delay_ms: z.int(m),
  }),
})

/** The answer to a trigger, polled for: `GET /events/:event_id/response`. */
export const eventResponseRecordSchema = loose({
  event_id: z.string(m),
  status: z.enum(['pending', 'responded'], m),
  response: z.nullable(notificationResponseSchema),
  responded_at: z.nullable(isoTimestamp),
})

// ---- Trigger request -------------------------------------------------------------------------

/** One choice of an emoji response config: the emoji, and a label of at most 15 characters. */
export const emojiOptionSchema = strict({
  emoji: nonEmpty(),
  label: maxCharacters(TRIGGER_LIMITS.maxLabelLength),
})

/** A response config inside the documented limits: what a careful client sends. */
export const responseConfigSchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('none', m) }),
    strict({ type: z.literal('yes_no_dismiss', m) }),
    strict({
      type: z.literal('emoji', m),
      options: z
        .array(emojiOptionSchema, m)
        .check(z.minLength(TRIGGER_LIMITS.minOptions), z.maxLength(TRIGGER_LIMITS.maxOptions)),
    }),
  ],
  m,
)

/**
 * What the service accepts and then truncates (rule 6): more than 5 options, labels longer than
 * 15 characters. Fewer than 2 options is undocumented; ringhook treats it as invalid.
 */
export const truncatableResponseConfigSchema = z.discriminatedUnion(
  'type',
  [
    loose({ type: z.literal('none', m) }),
    loose({ type: z.literal('yes_no_dismiss', m) }),
    loose({
      type: z.literal('emoji', m),
      options: z
        .array(loose({ emoji: nonEmpty(), label: z.string(m) }), m)
        .check(z.minLength(TRIGGER_LIMITS.minOptions)),
    }),
  ],
  m,
)

const timeoutMsSchema = z.int(m).check(z.gte(TRIGGER_LIMITS.minTimeoutMs), z.lte(TRIGGER_LIMITS.maxTimeoutMs))

const triggerFields = {
  /** A user-app id as delivered in webhooks, or `@me`. */
  user_app_id: nonEmpty(),
  app_id: nonEmpty(),
  sequence: vibeSequenceSchema,
  message: z.optional(vibeMessageSchema),
  show_ring_ui_notif: z.optional(z.boolean(m)),
  response_mode: z.optional(responseModeSchema),
  /** Await mode only. */
  timeout_ms: z.optional(timeoutMsSchema),
}

/** `timeout_ms` means nothing outside await mode; sending it elsewhere is a mistake worth naming. */
function timeoutOnlyWithAwait(
  value: { response_mode?: string | undefined; timeout_ms?: number | undefined },
  ctx: z.core.$RefinementCtx,
) {
  if (value.timeout_ms !== undefined && value.response_mode !== 'await') {
    ctx.addIssue({ code: 'custom', path: ['timeout_ms'], message: 'is only allowed with response_mode "await"' })
  }
}

/** {@link timeoutOnlyWithAwait} in JSON Schema's words, for `z.toJSONSchema` (see `ruleAsJsonSchema`). */
const TIMEOUT_ONLY_WITH_AWAIT = {
  if: { properties: { timeout_ms: {} }, required: ['timeout_ms'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, never awaited
  then: { properties: { response_mode: { const: 'await' } }, required: ['response_mode'] },
}

/** Gives a trigger schema the JSON Schema words of {@link triggerRules}. */
const describedAsTrigger = <S extends z.core.$ZodType>(schema: S): S =>
  describedAs(schema, ruleAsJsonSchema({ rule: 'messageWithNotification' }), TIMEOUT_ONLY_WITH_AWAIT)

function triggerRules(value: z.infer<z.ZodMiniObject<typeof triggerFields>>, ctx: z.core.$RefinementCtx): void {
  requireMessageWithNotification(value, ctx)
  timeoutOnlyWithAwait(value, ctx)
}

/** A trigger inside every documented limit; unknown fields are refused (they are typos). */
export const triggerRequestSchema = describedAsTrigger(
  strict({ ...triggerFields, response_config: z.optional(responseConfigSchema) }).check(z.superRefine(triggerRules)),
)

/** A trigger as the service accepts it: extra fields ignored, over-long response configs truncated later. */
export const serviceTriggerRequestSchema = describedAsTrigger(
  loose({ ...triggerFields, response_config: z.optional(truncatableResponseConfigSchema) }).check(
    z.superRefine(triggerRules),
  ),
)

// ---- Trigger result --------------------------------------------------------------------------

/** How a webhook- or poll-mode trigger reached the ring; the service documents no values beyond its examples. */
export const triggerDeliverySchema = loose({
  method: z.string(m),
  status: z.string(m),
  latency_ms: z.number(m),
  app_state: userStateSchema,
})

/** The answer an await-mode trigger waited for: `responded` with the value, `timeout`, or `not_enabled`. */
export const awaitedResponseSchema = loose({
  status: z.enum(['responded', 'timeout', 'not_enabled'], m),
  value: z.nullable(notificationResponseSchema),
  responded_at: z.optional(isoTimestamp),
})

const warnings = z.optional(z.array(z.string(m), m))

/** Result of a webhook- or poll-mode trigger. */
export const queuedTriggerResultSchema = loose({
  success: z.boolean(m),
  event_id: z.nullable(z.string(m)),
  response_mode: z.enum(['webhook', 'poll'], m),
  delivery: z.optional(triggerDeliverySchema),
  delivery_status: z.optional(z.literal('not_enabled', m)),
  warnings,
})

/** Result of an await-mode trigger. */
export const awaitTriggerResultSchema = loose({
  success: z.boolean(m),
  event_id: z.nullable(z.string(m)),
  response_mode: z.literal('await', m),
  response: awaitedResponseSchema,
  warnings,
})

/** The answer of `POST /vibes/trigger`, in any mode, discriminated on `response_mode`. */
export const triggerResultSchema = z.discriminatedUnion(
  'response_mode',
  [queuedTriggerResultSchema, awaitTriggerResultSchema],
  m,
)

/**
 * The error body ringhook's simulator sends. The service does not document its own error shape,
 * so clients must read it leniently.
 */
export const apiErrorBodySchema = loose({
  error: loose({ code: z.string(m), message: z.string(m) }),
})

// Response types name the documented fields only; the schemas keep any others at run time.
/** See {@link userStateFilterSchema}. */
export type UserStateFilter = z.infer<typeof userStateFilterSchema>
/** See {@link responseModeSchema}. */
export type ResponseMode = z.infer<typeof responseModeSchema>
/** See {@link installSchema}. */
export type Install = Closed<z.infer<typeof installSchema>>
/** See {@link ownInstallSchema}. */
export type OwnInstall = Closed<z.infer<typeof ownInstallSchema>>
/** See {@link userSchema}. */
export type User = Closed<z.infer<typeof userSchema>>
/** See {@link userDetailSchema}. */
export type UserDetail = Closed<z.infer<typeof userDetailSchema>>
/** See {@link permissionsSchema}. */
export type Permissions = Closed<z.infer<typeof permissionsSchema>>
/** See {@link vibePatternsSchema}. */
export type VibePatterns = Closed<z.infer<typeof vibePatternsSchema>>
/** See {@link eventResponseRecordSchema}. */
export type EventResponseRecord = Closed<z.infer<typeof eventResponseRecordSchema>>
/** See {@link emojiOptionSchema}. */
export type EmojiOption = z.infer<typeof emojiOptionSchema>
/** See {@link responseConfigSchema}. */
export type ResponseConfig = z.infer<typeof responseConfigSchema>
/** A trigger as `@ringhook/client` takes it (optional fields may be left out): see {@link triggerRequestSchema}. */
export type TriggerRequest = z.input<typeof triggerRequestSchema>
/** See {@link serviceTriggerRequestSchema}. */
export type ServiceTriggerRequest = Closed<z.infer<typeof serviceTriggerRequestSchema>>
/** See {@link triggerDeliverySchema}. */
export type TriggerDelivery = Closed<z.infer<typeof triggerDeliverySchema>>
/** @deprecated Use {@link triggerDeliverySchema} (a delivery, elsewhere in ringhook, is a webhook's); removed in 0.3.0. */
export const deliverySchema = triggerDeliverySchema
/** @deprecated Use {@link TriggerDelivery} (a delivery, elsewhere in ringhook, is a webhook's); removed in 0.3.0. */
export type Delivery = TriggerDelivery
/** See {@link awaitedResponseSchema}. */
export type AwaitedResponse = Closed<z.infer<typeof awaitedResponseSchema>>
/** See {@link queuedTriggerResultSchema}. */
export type QueuedTriggerResult = Closed<z.infer<typeof queuedTriggerResultSchema>>
/** See {@link awaitTriggerResultSchema}. */
export type AwaitTriggerResult = Closed<z.infer<typeof awaitTriggerResultSchema>>
/** See {@link triggerResultSchema}. */
export type TriggerResult = Closed<z.infer<typeof triggerResultSchema>>
/** See {@link apiErrorBodySchema}. */
export type ApiErrorBody = Closed<z.infer<typeof apiErrorBodySchema>>

export { type UserState, userStateSchema } from './user-state.js'
