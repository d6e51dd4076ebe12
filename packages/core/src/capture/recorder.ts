import type { Delivery } from '../receiver/delivery.js'
import type { Capture } from './capture.js'

// What the receiver knows of a capture, kept apart from the capture itself: the receiver's entry
// imports this file only, so a receiver without capture loads none of its code or schema.

/** The receiver hands each answered delivery to a capture under this key (not part of the public type). */
export const TAKE: unique symbol = Symbol.for('ringhook.capture.take') as never

/** What the receiver sees of a capture. */
export interface Recorder extends Capture {
  [TAKE](delivery: Delivery, arrivedAtMs: number, signatureHeader: string): void
}

/** Whether a value is a capture made by `createCapture` (of any copy of this package). */
export const isRecorder = (value: unknown): value is Recorder =>
  typeof (value as Partial<Recorder> | undefined)?.[TAKE] === 'function'
