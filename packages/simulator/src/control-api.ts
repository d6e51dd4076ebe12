/**
 * The objects and log entries of the control API (CONTROL-API.md): what `/_sim/` answers and
 * `/_sim/events` streams, and what a simulator's methods resolve with. Types only, defined once in
 * the simulator's own modules; a client of the control API (the page of @ringhook/simulator-ui)
 * takes them with `import type` and never loads the simulator. Published as `@ringhook/simulator/control-api`.
 *
 * @packageDocumentation
 * @document ../CONTROL-API.md
 */
export type { ApiErrorBody, UserState, VibeStep } from '@ringhook/core/api'
export type { LoadCapturesInput, LoadCapturesResult } from './captures.js'
export type { FaultName, FaultProfile, FaultSettings, InjectedFault } from './faults/kinds.js'
export type {
  AttemptProblem,
  DeliveryCounts,
  DifferentReplies,
  ReportedFault,
  SimReport,
  UndeliveredDelivery,
} from './faults/report.js'
export type { GestureResult } from './gestures.js'
export type { LifecycleAction, LifecycleResult } from './lifecycle.js'
export type {
  DeliveryAttemptEntry,
  DeliveryEntry,
  DeliveryQueuedEntry,
  DeliverySettledEntry,
  EntryListener,
  FaultEntry,
  GestureEntry,
  LogEntry,
  LogEntryType,
  LogQuery,
  LogView,
  NotificationEntry,
  NotificationTimeoutEntry,
  PublicApp,
  PublicKey,
  RequestEntry,
  StateChange,
  StateEntry,
  StateEntryKind,
  VibeEntry,
} from './log.js'
export type * from './model.js'
export type { AnswerResult } from './notifications.js'
export type { ResendResult } from './resend.js'
export type { SendEventResult } from './send-event.js'
