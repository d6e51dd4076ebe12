import * as z from 'zod/mini'
import { compilePlan } from './compiled-check.js'
import { issueMessages } from './messages.js'
import { once } from './once.js'
import { GESTURE_REPLY_PLAN, VIBE_PLAN } from './plans.generated.js'
import { describedAs, named, requireMessageWithNotification, ruleAsJsonSchema } from './refinements.js'
import { maxCharacters } from './text.js'
import { VIBE_LIMITS } from './vibe.js'

/**
 * The vibe's schemas, built together on first use (./once.ts): to word why a vibe or a gesture reply
 * is refused (a valid one passes the predicates below), or when the api entry is imported, which
 * exports and documents them (./vibe-schemas.ts).
 */
export const vibeSchemas = once(() => {
  const pattern = z.enum(VIBE_LIMITS.patterns, issueMessages)
  const step = z.strictObject(
    {
      /** `tap` or `pulse`. */
      type: pattern,
      /** The pause before this step, 150 to 2000 ms; the service's default is 300. */
      delay_ms: z.optional(z.int(issueMessages).check(z.gte(VIBE_LIMITS.minDelayMs), z.lte(VIBE_LIMITS.maxDelayMs))),
    },
    issueMessages,
  )
  const sequence = z.array(step, issueMessages).check(z.minLength(1), z.maxLength(VIBE_LIMITS.maxSteps))
  const message = maxCharacters(VIBE_LIMITS.maxMessageLength)
  const messageRule = { rule: 'messageWithNotification' } as const
  const vibe = z
    .strictObject(
      { sequence, message: z.optional(message), show_ring_ui_notif: z.optional(z.boolean(issueMessages)) },
      issueMessages,
    )
    .check(named(z.superRefine(requireMessageWithNotification), messageRule))
  describedAs(vibe, ruleAsJsonSchema(messageRule))
  const gestureReply = z.strictObject({ success: z.boolean(issueMessages), vibe: z.optional(vibe) }, issueMessages)
  return { pattern, step, sequence, message, vibe, gestureReply }
})

/** The vibe's schemas, by name. */
export type VibeSchemas = ReturnType<typeof vibeSchemas>

/** Whether `vibeSchema` would accept a value unchanged, without building it (./compiled-check.ts). */
export const vibeCheck = once(() => compilePlan(VIBE_PLAN))

/** Whether `gestureReplySchema` would accept a value unchanged, without building it. */
export const gestureReplyCheck = once(() => compilePlan(GESTURE_REPLY_PLAN))
