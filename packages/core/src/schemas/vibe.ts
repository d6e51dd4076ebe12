import * as z from 'zod/mini'
import { array, boolean, int, oneOf, optional, refine, strictObject, type ZodOf } from './form.js'
import { hasMessageIfNotified, requireMessageWithNotification, ruleAsJsonSchema } from './refinements.js'
import { characters } from './text.js'

/** Limits of a vibe, from the service's trigger rules. */
export const VIBE_LIMITS = Object.freeze({
  patterns: ['tap', 'pulse'] as const,
  maxSteps: 3,
  minDelayMs: 150,
  maxDelayMs: 2000,
  defaultDelayMs: 300,
  maxMessageLength: 80,
})

export { requireMessageWithNotification }

// A vibe and a gesture reply, each written once as a form (./form.ts): `vibe()` and the receiver
// pass a valid one by the form's predicate and build the zod schemas only to word why one is
// refused. The api entry exports the zod schemas (./vibe-schemas.ts).

/** `tap` or `pulse`. */
export const PATTERN = oneOf(VIBE_LIMITS.patterns)

/** One step: a pattern, and the pause before it. */
export const STEP = strictObject({
  /** `tap` or `pulse`. */
  type: PATTERN,
  /** The pause before this step, 150 to 2000 ms; the service's default is 300. */
  delay_ms: optional(int(VIBE_LIMITS.minDelayMs, VIBE_LIMITS.maxDelayMs)),
})

/** One to three steps. */
export const SEQUENCE = array(STEP, 1, VIBE_LIMITS.maxSteps)

/** The text shown with a vibe. */
export const MESSAGE = characters(VIBE_LIMITS.maxMessageLength)

/** A vibe as sent to the ring. */
export const VIBE = refine(
  strictObject({ sequence: SEQUENCE, message: optional(MESSAGE), show_ring_ui_notif: optional(boolean()) }),
  hasMessageIfNotified,
  () => z.superRefine(requireMessageWithNotification),
  ruleAsJsonSchema({ rule: 'messageWithNotification' }),
)

/** The body a receiver answers a gesture with. */
export const GESTURE_REPLY = strictObject({ success: boolean(), vibe: optional(VIBE) })

/** See {@link "@ringhook/core/api"!vibePatternSchema}. */
export type VibePattern = z.infer<ZodOf<typeof PATTERN>>
/** See {@link "@ringhook/core/api"!vibeStepSchema}. */
export type VibeStep = z.infer<ZodOf<typeof STEP>>
/** A vibe's own fields, as a gesture reply or a trigger carries them: see {@link "@ringhook/core/api"!vibeSchema}. */
export type VibePayload = z.infer<ZodOf<typeof VIBE>>
/** See {@link "@ringhook/core/api"!gestureReplySchema}. */
export type GestureReply = z.infer<ZodOf<typeof GESTURE_REPLY>>
