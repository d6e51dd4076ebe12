import { type GestureReply, gestureReplySchema } from '../schemas/vibe.js'
import { Vibe } from '../vibe.js'

export type ReplyResult = { ok: true; reply: GestureReply } | { ok: false; message: string }

/**
 * Turns what a gesture handler returned into the `{ success, vibe }` body, validated with the
 * trigger rules, so a bad vibe is reported to the developer instead of being sent to the service.
 */
export function toGestureReply(value: unknown): ReplyResult {
  const reply = normalise(value)
  const parsed = gestureReplySchema.safeParse(reply)
  if (parsed.success) return { ok: true, reply: parsed.data }
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`)
  return { ok: false, message: `The gesture handler returned an invalid vibe reply: ${issues.join('; ')}` }
}

function normalise(value: unknown): unknown {
  if (value === undefined) return { success: true }
  if (value instanceof Vibe) return { success: true, vibe: value.toJSON() }
  if (typeof value === 'object' && value !== null && 'sequence' in value) return { success: true, vibe: value }
  return value
}
