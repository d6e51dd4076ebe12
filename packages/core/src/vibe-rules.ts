import type * as z from 'zod/mini'
import { characterCount } from './schemas/text.js'
import { VIBE_LIMITS } from './schemas/vibe.js'

/**
 * The trigger rule a vibe broke: `steps` (1 to 3), `pattern` (`tap` or `pulse`), `delay`
 * (`delay_ms` a whole number from 150 to 2000), `message_length` (at most 80 characters),
 * `message_required` (the Ring UI notification shows a message), or `shape` (an unknown field,
 * or a field of the wrong type).
 */
export type VibeRule = 'steps' | 'pattern' | 'delay' | 'message_length' | 'message_required' | 'shape'

/** One broken rule, explained in the words of the trigger rules rather than schema paths. */
export interface VibeIssue {
  /** Which rule. */
  rule: VibeRule
  /** What is wrong, e.g. `a vibe has 1 to 3 steps (sequence), this one has 4`. */
  message: string
}

const { patterns, maxSteps, minDelayMs, maxDelayMs, maxMessageLength } = VIBE_LIMITS
const PATTERNS = patterns.map((p) => `"${p}"`).join(' or ')

const quote = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value))
const fields = (keys: readonly string[]): string => keys.map((key) => `"${key}"`).join(', ')

/** Explains one issue of `vibeSchema`, reported against the vibe `vibe`. */
function explainIssue(issue: z.core.$ZodIssue, vibe: Record<string, unknown>): VibeIssue {
  const [field, index, stepField] = issue.path
  const sequence = vibe.sequence
  if (field === 'sequence' && index === undefined) {
    const got = Array.isArray(sequence) ? `, this one has ${sequence.length}` : ''
    return { rule: 'steps', message: `a vibe has 1 to ${maxSteps} steps (sequence)${got}` }
  }
  if (field === 'sequence' && typeof index === 'number') {
    const step = Array.isArray(sequence) ? (sequence[index] as Record<string, unknown> | undefined) : undefined
    const name = `step ${index + 1}`
    if (stepField === 'type')
      return { rule: 'pattern', message: `${name} is ${quote(step?.type)}: a step is ${PATTERNS}` }
    if (stepField === 'delay_ms') {
      const message = `${name} waits ${quote(step?.delay_ms)} ms: delay_ms is a whole number from ${minDelayMs} to ${maxDelayMs}`
      return { rule: 'delay', message }
    }
    if (issue.code === 'unrecognized_keys') {
      return {
        rule: 'shape',
        message: `${name} has unknown fields ${fields(issue.keys)}: a step has type and delay_ms`,
      }
    }
    return { rule: 'shape', message: `${name} must be ${PATTERNS}, or { type, delay_ms }` }
  }
  // Both message rules are refinements (code `custom`): told apart by the vibe itself.
  const { message } = vibe
  const blank = typeof message !== 'string' || message.trim() === ''
  if (field === 'message' && vibe.show_ring_ui_notif === true && blank) {
    return {
      rule: 'message_required',
      message: 'the Ring UI notification (show_ring_ui_notif) needs a message to show',
    }
  }
  if (field === 'message') {
    const got = typeof message === 'string' ? `, this one has ${characterCount(message)}` : ''
    return { rule: 'message_length', message: `the message is text of at most ${maxMessageLength} characters${got}` }
  }
  if (field === 'show_ring_ui_notif') return { rule: 'shape', message: 'show_ring_ui_notif must be true or false' }
  if (issue.code === 'unrecognized_keys') {
    const message = `unknown fields ${fields(issue.keys)}: a vibe has sequence, message and show_ring_ui_notif`
    return { rule: 'shape', message }
  }
  return { rule: 'shape', message: 'a vibe is an object { sequence, message?, show_ring_ui_notif? }' }
}

/** Explains why `vibeSchema` refused `vibe` (issue paths relative to it), one entry per broken rule. */
export function explainVibeIssues(issues: readonly z.core.$ZodIssue[], vibe: unknown): VibeIssue[] {
  const record = typeof vibe === 'object' && vibe !== null ? (vibe as Record<string, unknown>) : {}
  return issues.map((issue) => explainIssue(issue, record))
}

/** Thrown by {@link vibe} and its methods when the vibe being built breaks a trigger rule. */
export class VibeRuleError extends Error {
  /** Always `'VibeRuleError'`. */
  override readonly name = 'VibeRuleError'
  /** The first rule broken; {@link VibeRuleError.issues} lists them all. */
  readonly rule: VibeRule
  constructor(
    /** Every rule broken, in order. */
    readonly issues: readonly [VibeIssue, ...VibeIssue[]],
  ) {
    super(`Invalid vibe: ${issues.map((issue) => issue.message).join('; ')}.`)
    this.rule = issues[0].rule
  }
}
