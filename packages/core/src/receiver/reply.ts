import type * as z from 'zod/mini'
import { GESTURE_REPLY, type GestureReply } from '../schemas/vibe.js'
import { ownVibePayload } from '../vibe.js'
import { explainVibeIssues } from '../vibe-rules.js'

export type ReplyResult = { ok: true; reply: GestureReply } | { ok: false; message: string }

const WHAT_A_REPLY_IS =
  'a gesture handler returns vibe(...), a plain { sequence, message?, show_ring_ui_notif? }, a full { success, vibe? }, or nothing'

/**
 * Turns what a gesture handler returned into the `{ success, vibe }` body, validated with the
 * trigger rules, so a bad vibe is reported to the developer (in the rules' words) instead of being
 * sent to the service.
 */
export function toGestureReply(value: unknown): ReplyResult {
  // A vibe built here was checked step by step as it was built: not checked again.
  const own = ownVibePayload(value)
  if (own) return { ok: true, reply: { success: true, vibe: own } }
  const reply = normalise(value)
  // A valid reply passes the form's predicate as it is; zod is built and run only to word what is wrong.
  if (GESTURE_REPLY.accepts(reply)) return { ok: true, reply: reply as GestureReply }
  const parsed = GESTURE_REPLY.zod().safeParse(reply)
  if (parsed.success) return { ok: true, reply: parsed.data }
  return { ok: false, message: `The gesture reply was not sent: ${explain(parsed.error, reply).join('; ')}.` }
}

/**
 * Serialises the value as `JSON.stringify` would (through its `toJSON`), so a vibe built by any
 * copy of `@ringhook/core` (the ESM or CommonJS build, another installed version) is recognised
 * without `instanceof`; then wraps a bare vibe in a reply.
 */
function normalise(value: unknown): unknown {
  if (value === undefined) return { success: true }
  const plain = hasToJSON(value) ? value.toJSON() : value
  if (isRecord(plain) && 'sequence' in plain) return { success: true, vibe: plain }
  return plain
}

function explain(error: z.core.$ZodError, reply: unknown): string[] {
  if (!isRecord(reply) || !('success' in reply || 'vibe' in reply))
    return [`${WHAT_A_REPLY_IS}; it returned ${describe(reply)}`]
  const vibeIssues = error.issues
    .filter((issue) => issue.path[0] === 'vibe')
    .map((issue) => ({ ...issue, path: issue.path.slice(1) }))
  const replyIssues = error.issues.filter((issue) => issue.path[0] !== 'vibe').map(explainReplyIssue)
  return [...replyIssues, ...explainVibeIssues(vibeIssues, reply.vibe).map((issue) => issue.message)]
}

function explainReplyIssue(issue: z.core.$ZodIssue): string {
  if (issue.path[0] === 'success') return 'success must be true or false'
  if (issue.code === 'unrecognized_keys')
    return `unknown fields ${issue.keys.map((k) => `"${k}"`).join(', ')}: a reply has success and vibe`
  return WHAT_A_REPLY_IS
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (isRecord(value)) {
    const keys = Object.keys(value)
    return keys.length === 0 ? 'an empty object' : `an object with ${keys.map((k) => `"${k}"`).join(', ')}`
  }
  return `a ${typeof value}`
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const hasToJSON = (value: unknown): value is { toJSON(): unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'
