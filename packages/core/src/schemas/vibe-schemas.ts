import { GESTURE_REPLY, MESSAGE, PATTERN, SEQUENCE, STEP, VIBE } from './vibe.js'

// The vibe's zod schemas, built from their forms (./vibe.ts) when `@ringhook/core/api` is
// imported. The receiver and `vibe()` do not import this module.

/** The patterns a step may play: `tap` or `pulse`. */
export const vibePatternSchema = PATTERN.zod()

/** One step of a vibe: `type` (`tap` or `pulse`) and `delay_ms`, the pause before it (150 to 2000 ms; the service's default is 300). */
export const vibeStepSchema = STEP.zod()

/** The steps of a vibe: one to three. */
export const vibeSequenceSchema = SEQUENCE.zod()

/** The text shown with a vibe: at most 80 characters. */
export const vibeMessageSchema = MESSAGE.zod()

/** A vibe as sent to the ring: what a gesture reply carries. */
export const vibeSchema = VIBE.zod()

/** The body a receiver answers a gesture with. */
export const gestureReplySchema = GESTURE_REPLY.zod()
