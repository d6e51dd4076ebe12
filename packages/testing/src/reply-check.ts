import { describeIssues, type GestureReply, gestureReplySchema, type VibePayload } from '@ringhook/core/api'

/** What a receiver's answer to a gesture means for the ring. */
export type GestureReplyCheck =
  | {
      /** No vibe: an empty or non-JSON body, or JSON without `vibe`. The gesture was simply acknowledged. */
      kind: 'none'
    }
  | {
      /** A reply whose vibe follows the trigger rules; the ring plays it. */
      kind: 'vibe'
      /** The reply, parsed. */
      reply: GestureReply
      /** The vibe the ring plays. */
      vibe: VibePayload
    }
  | {
      /** A reply that breaks the trigger rules. */
      kind: 'invalid'
      /** Every broken rule in one line, `path: message; path: message`. */
      rule: string
    }

/**
 * Checks a gesture reply body the way the service does before it vibrates the ring:
 * `{ success, vibe: { sequence, message, show_ring_ui_notif } }` with the trigger rules.
 */
export function checkGestureReply(body: string | null | undefined): GestureReplyCheck {
  if (!body?.trim()) return { kind: 'none' }
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { kind: 'none' }
  }
  if (typeof value !== 'object' || value === null || !('vibe' in value)) return { kind: 'none' }
  const parsed = gestureReplySchema.safeParse(value)
  if (!parsed.success) return { kind: 'invalid', rule: describeIssues(parsed.error) }
  if (!parsed.data.vibe) return { kind: 'none' }
  return { kind: 'vibe', reply: parsed.data, vibe: parsed.data.vibe }
}
