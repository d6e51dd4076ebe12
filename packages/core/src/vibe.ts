import type { VibePattern, VibePayload, VibeStep } from './schemas/vibe.js'

/** A step given to {@link vibe}: a pattern name, or a step with its own delay (see {@link after}). */
export type StepInput = VibePattern | VibeStep

/**
 * An immutable vibe under construction. Every method returns a new builder; the receiver
 * and the client validate the result against the trigger rules when it is sent.
 */
export class Vibe {
  readonly #payload: VibePayload

  constructor(payload: VibePayload) {
    this.#payload = payload
  }

  /** Sets the message (at most 80 characters) shown with the vibe. */
  message(text: string): Vibe {
    return new Vibe({ ...this.#payload, message: text })
  }

  /** Shows the 5-second Ring UI notification; it needs a message, given here or before. */
  notify(text?: string): Vibe {
    const message = text ?? this.#payload.message
    return new Vibe({ ...this.#payload, ...(message === undefined ? {} : { message }), show_ring_ui_notif: true })
  }

  /** The plain object sent to the service. */
  toJSON(): VibePayload {
    return { ...this.#payload, sequence: this.#payload.sequence.map((step) => ({ ...step })) }
  }
}

/**
 * Builds a vibe from up to three steps.
 *
 * @example
 * vibe('tap', 'pulse').message('Saved')
 * vibe('tap', after(600, 'pulse')).notify('Meeting in 5 minutes')
 */
export function vibe(...steps: StepInput[]): Vibe {
  return new Vibe({ sequence: steps.map((step) => (typeof step === 'string' ? { type: step } : { ...step })) })
}

/** A step that waits `delayMs` (150..2000) before it plays. */
export function after(delayMs: number, type: VibePattern): VibeStep {
  return { type, delay_ms: delayMs }
}
