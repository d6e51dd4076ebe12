/**
 * Helpers for an app's own tests. The simulator is `@ringhook/simulator` and the CLI is
 * `@ringhook/cli`; this package loads neither (test/entry-graph.test.ts).
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type AnswerExplanation, explainAnswer } from './explain.js'
export {
  createEvent,
  DEFAULT_APP_ID,
  DEFAULT_USER_APP_ID,
  type EventFactories,
  type EventOverrides,
  events,
} from './factories.js'
export { checkGestureReply, type GestureReplyCheck } from './reply-check.js'
export { type SendWebhookOptions, type SendWebhookResult, sendWebhook } from './send.js'
export {
  type SignEventOptions,
  type SignedWebhook,
  type SignWebhookOptions,
  signEvent,
  signWebhook,
} from './sign.js'
export { type SignableRequest, signed } from './supertest.js'
export {
  compareStates,
  type InstallsSource,
  type StatesSource,
  type StatesVerdict,
} from './verdict/states.js'
export {
  createHandlerTracker,
  type DeliverySource,
  type HandledEvent,
  type HandlerTracker,
  type HandlerVerdict,
  type MissingEvent,
  type TrackedEvent,
  trackHandlers,
} from './verdict/tracker.js'
