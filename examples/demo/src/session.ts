// What a step works with, and what it is.
import type { Stage } from './stage.js'
import type { Timeline } from './timeline.js'

export interface Session {
  stage: Stage
  timeline: Timeline
  /** How long Ada takes to read a question before she answers (real milliseconds). */
  readMs: number
  /** Ada's user_app_id for "Demo control", once step 1 installed it. */
  control?: string
  /** Ada's user_app_id for "Demo questions", once installed. */
  questions?: string
}

export interface Step {
  title: string
  /** What the spec says should happen. */
  expects: string
  run(session: Session): Promise<void>
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A value an earlier step was to provide; its absence fails this step with a clear reason. */
export function need(value: string | undefined, what: string): string {
  if (value === undefined) throw new Error(`${what} is missing: an earlier step failed`)
  return value
}
