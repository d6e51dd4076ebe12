import type { VibePattern, VibePayload, VibeStep } from './schemas/vibe.js'
import { VIBE } from './schemas/vibe.js'
import { explainVibeIssues, type VibeIssue, VibeRuleError } from './vibe-rules.js'

/** A step given to {@link vibe}: a pattern name, or a step with its own delay (see {@link after}). */
export type StepInput = VibePattern | VibeStep

/** One to three steps: a fourth is a compile error (and a {@link VibeRuleError} from untyped code). */
export type StepInputs = [StepInput] | [StepInput, StepInput] | [StepInput, StepInput, StepInput]

/**
 * An immutable vibe, valid by the trigger rules: every method returns a new vibe, and throws a
 * {@link VibeRuleError} naming the rule when the result would break one.
 */
export interface Vibe {
  /** Sets the message (at most 80 characters) shown with the vibe. */
  message(text: string): Vibe
  /** Shows the 5-second Ring UI notification; it needs a message, given here or before. */
  notify(text?: string): Vibe
  /** The plain object sent to the service. */
  toJSON(): VibePayload
}

function checked(payload: VibePayload): VibePayload {
  // A valid vibe passes the form's predicate; zod is built and run only to word what is wrong.
  if (VIBE.accepts(payload)) return payload
  const parsed = VIBE.zod().safeParse(payload)
  if (parsed.success) return payload
  throw new VibeRuleError(explainVibeIssues(parsed.error.issues, payload) as [VibeIssue, ...VibeIssue[]])
}

class VibeBuilder implements Vibe {
  readonly #payload: VibePayload

  constructor(payload: VibePayload) {
    this.#payload = checked(payload)
  }

  message(text: string): Vibe {
    return new VibeBuilder({ ...this.#payload, message: text })
  }

  notify(text?: string): Vibe {
    const message = text ?? this.#payload.message
    return new VibeBuilder({
      ...this.#payload,
      ...(message === undefined ? {} : { message }),
      show_ring_ui_notif: true,
    })
  }

  toJSON(): VibePayload {
    return { ...this.#payload, sequence: this.#payload.sequence.map((step) => ({ ...step })) }
  }
}

/**
 * The payload of a vibe this copy of core built, already checked when it was built; `undefined`
 * for anything else (a vibe of another copy, a plain object), which the reply check reads.
 */
export const ownVibePayload = (value: unknown): VibePayload | undefined =>
  value instanceof VibeBuilder ? value.toJSON() : undefined

/**
 * Builds a vibe from one to three steps, checked against the trigger rules as it is built.
 *
 * @example
 * vibe('tap', 'pulse').message('Saved')
 * vibe('tap', after(600, 'pulse')).notify('Meeting in 5 minutes')
 */
export function vibe(...steps: StepInputs): Vibe {
  return new VibeBuilder({ sequence: steps.map((step) => (typeof step === 'string' ? { type: step } : { ...step })) })
}

/** A step that waits `delayMs` (a whole number, 150..2000) before it plays. */
export function after(delayMs: number, type: VibePattern): VibeStep {
  const step = { type, delay_ms: delayMs }
  const alone = { sequence: [step] }
  if (VIBE.accepts(alone)) return step
  const parsed = VIBE.zod().safeParse(alone)
  if (parsed.success) return step
  const issues = explainVibeIssues(parsed.error.issues, alone).map((issue) => ({
    rule: issue.rule,
    message: `after(${delayMs}, ${JSON.stringify(type)}): ${issue.message.replace(/^step 1 /, 'the step ')}`,
  }))
  throw new VibeRuleError(issues as [VibeIssue, ...VibeIssue[]])
}
