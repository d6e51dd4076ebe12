export {
  createHandlerTracker,
  type DeliverySource,
  type HandledEvent,
  type HandlerTracker,
  type HandlerVerdict,
  type TrackedEvent,
  trackHandlers,
} from './tracker.js'
