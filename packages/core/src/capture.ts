/**
 * Capture: recording answered deliveries, exactly as they arrived, to a sink, for replay. For apps
 * (`createCapture`, passed to `createReceiver({ capture })`) and for sink authors (`CaptureSink`,
 * `CapturedDelivery`), and for capture readers (`CaptureFilter`, `matchesCapture`).
 *
 * @packageDocumentation
 */
export { type Capture, type CaptureStats, createCapture } from './capture/capture.js'
export { type CaptureFilter, matchesCapture } from './capture/filter.js'
export { type CaptureOptions, DEFAULT_CAPTURE_BYTES, type UnauthenticatedLimits } from './capture/options.js'
export { hashValue, type PersonalAction, type PersonalFields } from './capture/personal.js'
export {
  CAPTURE_FORMAT_VERSION,
  type CapturedDelivery,
  type CaptureOutcome,
  capturedDeliverySchema,
  captureOutcomeSchema,
} from './capture/record.js'
export type { CaptureSink } from './capture/sink.js'
