import {
  serviceTriggerRequestSchema,
  type TriggerRequest,
  triggerRequestSchema,
  type VibePayload,
} from '@ringhook/core/api'
import { ValidationError } from './errors.js'
import { issuesOf, parseInput } from './validate.js'

type VibeFields = 'sequence' | 'message' | 'show_ring_ui_notif'

/** Anything with the vibe builder's `toJSON()`, such as `vibe('tap').notify('Hi')`. */
export interface VibeLike {
  /** The vibe as the body's `sequence`, `message` and `show_ring_ui_notif`. */
  toJSON(): VibePayload
}

/** A trigger whose vibe comes from the builder: `{ app_id, user_app_id, vibe: vibe('tap', 'pulse') }`. */
export type TriggerWithVibe = Omit<TriggerRequest, VibeFields> & {
  /** The vibe, from the builder or as its JSON. */
  vibe: VibeLike | VibePayload
}

/** What `vibes.trigger` takes: the body of POST /vibes/trigger, with the vibe inline or from the builder. */
export type TriggerInput = TriggerRequest | TriggerWithVibe

/** The body actually sent. */
export type TriggerBody = TriggerRequest

const hasToJson = (value: unknown): value is VibeLike =>
  typeof value === 'object' && value !== null && typeof (value as VibeLike).toJSON === 'function'

/** Puts a builder's vibe into the body's own fields. */
function flatten(input: TriggerInput): unknown {
  if (typeof input !== 'object' || input === null || !('vibe' in input)) return input
  const { vibe, ...rest } = input as TriggerWithVibe & Partial<Record<VibeFields, unknown>>
  if (rest.sequence !== undefined || rest.message !== undefined || rest.show_ring_ui_notif !== undefined) {
    throw new ValidationError([
      { field: 'vibe', message: 'cannot be combined with sequence, message or show_ring_ui_notif' },
    ])
  }
  return { ...rest, ...(hasToJson(vibe) ? vibe.toJSON() : vibe) }
}

/**
 * Validates a trigger before it is sent. By default every documented limit is enforced; with
 * `allowTruncation`, a response config the service would truncate (over 5 options, labels over
 * 15 characters) passes, everything else is still checked strictly.
 */
export function prepareTrigger(input: TriggerInput, allowTruncation: boolean): TriggerBody {
  const body = flatten(input)
  const strict = triggerRequestSchema.safeParse(body)
  if (strict.success) return strict.data
  const issues = issuesOf(strict.error)
  const others = issues.filter((issue) => !issue.field.startsWith('response_config'))
  if (others.length > 0) throw new ValidationError(others)
  if (allowTruncation) return parseInput(serviceTriggerRequestSchema, body) as TriggerBody
  // Say so when the only problem is one the service would have truncated.
  const truncatable = serviceTriggerRequestSchema.safeParse(body).success
  throw new ValidationError(
    truncatable ? issues.map((issue) => ({ ...issue, message: `${issue.message}${HINT}` })) : issues,
  )
}

const HINT = ' (the service would truncate it; pass allowTruncation: true to allow that)'
