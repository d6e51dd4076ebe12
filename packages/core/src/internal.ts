/**
 * For ringhook's own packages only, not for apps or third-party adapters: what they share with the
 * core beyond its public entries (a receiver's handler registry for `@ringhook/bullmq`'s worker, the
 * read-ahead of `@ringhook/fastify`, the body timer of `@ringhook/node`, how the tools read an answer up to a cap, the list of events the
 * documents, factories and simulator derive from). Not covered by semver: any release of
 * `@ringhook/core` may change or remove a name here, and the packages that use it move with it.
 * Not in the API reference.
 *
 * @packageDocumentation
 */
export { type CappedAnswer, readAnswer } from './http/read-answer.js'
export { consoleLogger } from './logger.js'
export { beginArrival } from './receiver/arrival.js'
export { bodyDeadlines, type Deadline, type Deadlines } from './receiver/deadlines.js'
export { type HandlersResult, Registry, registering, type StoredHandler } from './receiver/registry.js'
export { readsBody } from './receiver/unread.js'
export {
  EVENT_NOTES,
  EVENTS,
  type EventNote,
  type EventSample,
  type InstallStatus,
  LIFECYCLE_EVENT_NAMES,
  type LifecycleEventName,
  stateAfter,
} from './schemas/events.js'
