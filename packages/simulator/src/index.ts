/**
 * The whole service on localhost, driven from code or over HTTP: what you create and configure a
 * simulator with. The records it answers with (apps, deliveries, log entries, the report, the
 * actions' results) are types of `@ringhook/simulator/control-api`.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type Clock, createFakeClock, type FakeClock, type TimeSource } from './clock.js'
export { DEFAULT_GESTURE_TYPES, type ExtraContext, type ExtraHandler, type SimulatorOptions } from './config.js'
export { type ActionOptions, createSimulator, type Simulator, type WaitOptions } from './create-simulator.js'
export { SimulatorError, type SimulatorErrorCode } from './errors.js'
export { FAULT_NAMES, FAULT_PROFILES, type FaultSettingsInput } from './faults/kinds.js'
export type {
  CreateAppInput,
  CreateKeyInput,
  CreateUserInput,
  InstallInput,
  UpdateAppInput,
  UpdateInstallInput,
  UpdateUserInput,
} from './inputs.js'
export { DEMO_API_KEY, type DemoData, type SeedOptions } from './seed.js'
