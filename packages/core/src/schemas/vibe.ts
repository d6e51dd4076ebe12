import type * as z from 'zod/mini'
import { requireMessageWithNotification } from './refinements.js'
import type { VibeSchemas } from './vibe-builders.js'

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

/** See {@link "@ringhook/core/api"!vibePatternSchema}. */
export type VibePattern = z.infer<VibeSchemas['pattern']>
/** See {@link "@ringhook/core/api"!vibeStepSchema}. */
export type VibeStep = z.infer<VibeSchemas['step']>
/** A vibe's own fields, as a gesture reply or a trigger carries them: see {@link "@ringhook/core/api"!vibeSchema}. */
export type VibePayload = z.infer<VibeSchemas['vibe']>
/** See {@link "@ringhook/core/api"!gestureReplySchema}. */
export type GestureReply = z.infer<VibeSchemas['gestureReply']>
