/**
 * The whole service on localhost, driven from code or over HTTP.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type Clock, createFakeClock, type FakeClock } from './clock.js'
export { DEFAULT_GESTURE_TYPES, type ExtraContext, type ExtraHandler, type SimulatorOptions } from './config.js'
export type * from './control-api.js'
export { createSimulator, type Simulator, type WaitOptions } from './create-simulator.js'
export { SimulatorError, type SimulatorErrorCode } from './errors.js'
// The control API's types (faults and the report among them) come from ./control-api.ts above.
export { FAULT_NAMES, FAULT_PROFILES, type FaultSettingsInput } from './faults/kinds.js'
export type { GestureResult } from './gestures.js'
export type {
  CreateAppInput,
  CreateKeyInput,
  CreateUserInput,
  InstallInput,
  UpdateAppInput,
  UpdateInstallInput,
  UpdateUserInput,
} from './inputs.js'
export type { LifecycleAction, LifecycleResult } from './lifecycle.js'
export type { EntryListener } from './log.js'
export type { AnswerResult } from './notifications.js'
export type { ResendResult } from './resend.js'
export { DEMO_API_KEY, type DemoData, type SeedOptions } from './seed.js'
