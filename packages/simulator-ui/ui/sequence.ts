import type { VibeStep } from '@ringhook/simulator/control-api'

/** The spec's default pause before a step. */
export const DEFAULT_DELAY_MS = 300
/** How long the page lights the ring for each step: the spec gives no length, a tap is short, a pulse long. */
export const STEP_MS = { tap: 120, pulse: 450 } as const

export interface TimedStep {
  type: VibeStep['type']
  delay: number
  start: number
  end: number
}

/** When each step of a sequence starts and ends, in ms from the moment the vibe reaches the ring. */
export function schedule(sequence: readonly VibeStep[]): TimedStep[] {
  let cursor = 0
  return sequence.map((step) => {
    const delay = step.delay_ms ?? DEFAULT_DELAY_MS
    const start = cursor + delay
    cursor = start + (STEP_MS[step.type] ?? STEP_MS.tap)
    return { type: step.type, delay, start, end: cursor }
  })
}
