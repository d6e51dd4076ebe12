import { z } from 'zod'
import type { Closed } from '../../../src/schemas/closed.js'
import { isoTimestamp, notificationResponseSchema } from './events.js'
import { maxCharacters } from './text.js'
import { requireMessageWithNotification, vibeMessageSchema, vibeSequenceSchema } from './vibe.js'

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

export const userStateSchema = z.enum(['active', 'passive', 'inactive'])
export const userStateFilterSchema = z.enum(['active', 'passive', 'inactive', 'all'])
export const responseModeSchema = z.enum(['webhook', 'poll', 'await'])

// ---- Resources -------------------------------------------------------------------------------

export const installSchema = z.looseObject({
  user_app_id: z.string(),
  is_active: z.boolean(),
  installed_at: isoTimestamp,
})
export const installListSchema = z.looseObject({ installs: z.array(installSchema) })
/** The caller's own installation (`installs/@me`) also names the app. */
export const ownInstallSchema = installSchema.extend({ app_id: z.string() })

export const userSchema = z.looseObject({
  user_app_id: z.string(),
  state: userStateSchema,
  installed_at: isoTimestamp,
})
export const userListSchema = z.looseObject({ users: z.array(userSchema) })
/** Other permission keys are not documented; they are kept. */
export const permissionsSchema = z.looseObject({ vibes: z.boolean(), gestures: z.boolean() })
export const userDetailSchema = userSchema.extend({ app_id: z.string(), permissions: permissionsSchema })

export const vibePatternsSchema = z.looseObject({
  patterns: z.array(z.string()),
  max_sequence_length: z.number().int(),
  timing: z.looseObject({
    min_delay_ms: z.number().int(),
    max_delay_ms: z.number().int(),
    default_delay_ms: z.number().int(),
  }),
})

export const eventResponseRecordSchema = z.looseObject({
  event_id: z.string(),
  status: z.enum(['pending', 'responded']),
  response: notificationResponseSchema.nullable(),
  responded_at: isoTimestamp.nullable(),
})

// ---- Trigger request -------------------------------------------------------------------------

export const emojiOptionSchema = z.strictObject({
  emoji: z.string().min(1),
  label: maxCharacters(TRIGGER_LIMITS.maxLabelLength),
})

/** A response config inside the documented limits: what a careful client sends. */
export const responseConfigSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('yes_no_dismiss') }),
  z.strictObject({
    type: z.literal('emoji'),
    options: z.array(emojiOptionSchema).min(TRIGGER_LIMITS.minOptions).max(TRIGGER_LIMITS.maxOptions),
  }),
])

/**
 * What the service accepts and then truncates (rule 6): more than 5 options, labels longer than
 * 15 characters. Fewer than 2 options is undocumented; ringhook treats it as invalid.
 */
export const truncatableResponseConfigSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('none') }),
  z.looseObject({ type: z.literal('yes_no_dismiss') }),
  z.looseObject({
    type: z.literal('emoji'),
    options: z.array(z.looseObject({ emoji: z.string().min(1), label: z.string() })).min(TRIGGER_LIMITS.minOptions),
  }),
])

const timeoutMsSchema = z.number().int().min(TRIGGER_LIMITS.minTimeoutMs).max(TRIGGER_LIMITS.maxTimeoutMs)

const triggerFields = {
  /** A user-app id as delivered in webhooks, or `@me`. */
  user_app_id: z.string().min(1),
  app_id: z.string().min(1),
  sequence: vibeSequenceSchema,
  message: vibeMessageSchema.optional(),
  show_ring_ui_notif: z.boolean().optional(),
  response_mode: responseModeSchema.optional(),
  /** Await mode only. */
  timeout_ms: timeoutMsSchema.optional(),
}

/** `timeout_ms` means nothing outside await mode; sending it elsewhere is a mistake worth naming. */
function timeoutOnlyWithAwait(
  value: { response_mode?: string | undefined; timeout_ms?: number | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.timeout_ms !== undefined && value.response_mode !== 'await') {
    ctx.addIssue({ code: 'custom', path: ['timeout_ms'], message: 'is only allowed with response_mode "await"' })
  }
}

function triggerRules(value: z.infer<z.ZodObject<typeof triggerFields>>, ctx: z.RefinementCtx): void {
  requireMessageWithNotification(value, ctx)
  timeoutOnlyWithAwait(value, ctx)
}

/** A trigger inside every documented limit; unknown fields are refused (they are typos). */
export const triggerRequestSchema = z
  .strictObject({ ...triggerFields, response_config: responseConfigSchema.optional() })
  .superRefine(triggerRules)

/** A trigger as the service accepts it: extra fields ignored, over-long response configs truncated later. */
export const serviceTriggerRequestSchema = z
  .looseObject({ ...triggerFields, response_config: truncatableResponseConfigSchema.optional() })
  .superRefine(triggerRules)

// ---- Trigger result --------------------------------------------------------------------------

export const deliverySchema = z.looseObject({
  method: z.string(),
  status: z.string(),
  latency_ms: z.number(),
  app_state: userStateSchema,
})

export const awaitedResponseSchema = z.looseObject({
  status: z.enum(['responded', 'timeout', 'not_enabled']),
  value: notificationResponseSchema.nullable(),
  responded_at: isoTimestamp.optional(),
})

const warnings = z.array(z.string()).optional()

/** Result of a webhook- or poll-mode trigger. */
export const queuedTriggerResultSchema = z.looseObject({
  success: z.boolean(),
  event_id: z.string().nullable(),
  response_mode: z.enum(['webhook', 'poll']),
  delivery: deliverySchema.optional(),
  delivery_status: z.literal('not_enabled').optional(),
  warnings,
})

/** Result of an await-mode trigger. */
export const awaitTriggerResultSchema = z.looseObject({
  success: z.boolean(),
  event_id: z.string().nullable(),
  response_mode: z.literal('await'),
  response: awaitedResponseSchema,
  warnings,
})

export const triggerResultSchema = z.discriminatedUnion('response_mode', [
  queuedTriggerResultSchema,
  awaitTriggerResultSchema,
])

/**
 * The error body ringhook's simulator sends. The service does not document its own error shape,
 * so clients must read it leniently.
 */
export const apiErrorBodySchema = z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string() }),
})

// Response types name the documented fields only; the schemas keep any others at run time.
export type UserState = z.infer<typeof userStateSchema>
export type UserStateFilter = z.infer<typeof userStateFilterSchema>
export type ResponseMode = z.infer<typeof responseModeSchema>
export type Install = Closed<z.infer<typeof installSchema>>
export type OwnInstall = Closed<z.infer<typeof ownInstallSchema>>
export type User = Closed<z.infer<typeof userSchema>>
export type UserDetail = Closed<z.infer<typeof userDetailSchema>>
export type Permissions = Closed<z.infer<typeof permissionsSchema>>
export type VibePatterns = Closed<z.infer<typeof vibePatternsSchema>>
export type EventResponseRecord = Closed<z.infer<typeof eventResponseRecordSchema>>
export type EmojiOption = z.infer<typeof emojiOptionSchema>
export type ResponseConfig = z.infer<typeof responseConfigSchema>
export type TriggerRequest = z.input<typeof triggerRequestSchema>
export type ServiceTriggerRequest = Closed<z.infer<typeof serviceTriggerRequestSchema>>
export type Delivery = Closed<z.infer<typeof deliverySchema>>
export type AwaitedResponse = Closed<z.infer<typeof awaitedResponseSchema>>
export type QueuedTriggerResult = Closed<z.infer<typeof queuedTriggerResultSchema>>
export type AwaitTriggerResult = Closed<z.infer<typeof awaitTriggerResultSchema>>
export type TriggerResult = Closed<z.infer<typeof triggerResultSchema>>
export type ApiErrorBody = Closed<z.infer<typeof apiErrorBodySchema>>
