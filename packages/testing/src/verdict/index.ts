export {
  createHandlerTracker,
  type DeliverySource,
  type HandledEvent,
  type HandlerTracker,
  type HandlerVerdict,
  type MissingEvent,
  type TrackedEvent,
  trackHandlers,
} from './tracker.js'
