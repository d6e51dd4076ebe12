import * as z from 'zod/mini'
import { issueMessages } from './messages.js'
import { maxCharacters } from './text.js'

/** Limits of a vibe, from the service's trigger rules. */
export const VIBE_LIMITS = Object.freeze({
  patterns: ['tap', 'pulse'] as const,
  maxSteps: 3,
  minDelayMs: 150,
  maxDelayMs: 2000,
  defaultDelayMs: 300,
  maxMessageLength: 80,
})

/** The patterns a step may play: `tap` or `pulse`. */
export const vibePatternSchema = z.enum(VIBE_LIMITS.patterns, issueMessages)

/** One step of a vibe. `delay_ms` is the pause before it; the service defaults it to 300. */
export const vibeStepSchema = z.strictObject(
  {
    /** `tap` or `pulse`. */
    type: vibePatternSchema,
    /** The pause before this step, 150 to 2000 ms; the service's default is 300. */
    delay_ms: z.optional(z.int(issueMessages).check(z.gte(VIBE_LIMITS.minDelayMs), z.lte(VIBE_LIMITS.maxDelayMs))),
  },
  issueMessages,
)

/** The steps of a vibe: one to three. */
export const vibeSequenceSchema = z
  .array(vibeStepSchema, issueMessages)
  .check(z.minLength(1), z.maxLength(VIBE_LIMITS.maxSteps))

/** The text shown with a vibe: at most 80 characters. */
export const vibeMessageSchema = maxCharacters(VIBE_LIMITS.maxMessageLength)

/** Adds the rule shared by replies and triggers: a Ring UI notification needs a message. */
export function requireMessageWithNotification(
  value: { message?: string | undefined; show_ring_ui_notif?: boolean | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  if (value.show_ring_ui_notif === true && !value.message?.trim()) {
    ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when show_ring_ui_notif is true' })
  }
}

/** A vibe as sent to the ring: what a gesture reply carries. */
export const vibeSchema = z
  .strictObject(
    {
      sequence: vibeSequenceSchema,
      message: z.optional(vibeMessageSchema),
      show_ring_ui_notif: z.optional(z.boolean(issueMessages)),
    },
    issueMessages,
  )
  .check(z.superRefine(requireMessageWithNotification))

/** The body a receiver answers a gesture with. */
export const gestureReplySchema = z.strictObject(
  {
    success: z.boolean(issueMessages),
    vibe: z.optional(vibeSchema),
  },
  issueMessages,
)

/** See {@link vibePatternSchema}. */
export type VibePattern = z.infer<typeof vibePatternSchema>
/** See {@link vibeStepSchema}. */
export type VibeStep = z.infer<typeof vibeStepSchema>
/** A vibe's own fields, as a gesture reply or a trigger carries them: see {@link vibeSchema}. */
export type VibePayload = z.infer<typeof vibeSchema>
/** See {@link gestureReplySchema}. */
export type GestureReply = z.infer<typeof gestureReplySchema>
