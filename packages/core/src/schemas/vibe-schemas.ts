import { vibeSchemas } from './vibe-builders.js'

// The vibe's schemas as constants, for `@ringhook/core/api`: built when that entry is imported. The
// receiver and `vibe()` do not import this module; they build the schemas on first use (./vibe.ts).
const built = vibeSchemas()

/** The patterns a step may play: `tap` or `pulse`. */
export const vibePatternSchema = built.pattern

/** One step of a vibe: `type` (`tap` or `pulse`) and `delay_ms`, the pause before it (150 to 2000 ms; the service's default is 300). */
export const vibeStepSchema = built.step

/** The steps of a vibe: one to three. */
export const vibeSequenceSchema = built.sequence

/** The text shown with a vibe: at most 80 characters. */
export const vibeMessageSchema = built.message

/** A vibe as sent to the ring: what a gesture reply carries. */
export const vibeSchema = built.vibe

/** The body a receiver answers a gesture with. */
export const gestureReplySchema = built.gestureReply
