import type { EventName } from '../schemas/events.js'
import { attachLifecycle } from './arrival.js'
import { fromFetchRequest, hooksFromArgs, toFetchResponse } from './fetch.js'
import { type CloseOptions, type CloseResult, DEFAULT_CLOSE_TIMEOUT_MS, Lifecycle } from './lifecycle.js'
import { type ReceiverOptions, type ResolvedOptions, resolveOptions } from './options.js'
import { perInstanceDedupWarning } from './per-instance-dedup.js'
import { Pipeline } from './pipeline.js'
import { Registry, registering } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import type { AnyHandler, ErrorHandler, Handler } from './types.js'

/** A webhook receiver: register handlers, then mount it with an adapter or call `handle` directly. */
export interface Receiver {
  /**
   * Registers a handler for one event or several. Gesture handlers may return a vibe.
   *
   * Several handlers for one event: all are started in registration order (this event's handlers,
   * then the `onAny` ones), each even if an earlier one threw, and the answer waits for every one.
   * If any threw or rejected, the answer is 500 `handler_error`, the claim is released so the
   * service's retry runs them all again, and each failure goes to `onError` in registration order.
   * Otherwise it is 200 with the first reply, in registration order, that a handler of this event
   * returned (a warning is logged when several did).
   *
   * @example receiver.on('gesture', (event) => vibe('tap').message(`Got ${event.gesture_type}`))
   */
  on<N extends EventName>(name: N | readonly N[], handler: Handler<N>): Receiver
  /** Registers a handler for every event, including ones this version does not know. */
  onAny(handler: AnyHandler): Receiver
  /** Registers a handler for failures the sender never hears about. */
  onError(handler: ErrorHandler): Receiver
  /** Removes a handler registered with `on` or `onAny`. */
  off(handler: Handler<EventName> | AnyHandler): Receiver
  /**
   * The whole pipeline over plain data. Never throws.
   * @example const response = await receiver.handle({ method, headers, rawBody }) // { status, headers, body }
   */
  handle(request: WebhookRequest, hooks?: HandleHooks): Promise<WebhookResponse>
  /**
   * The pipeline for Fetch-style runtimes (Bun.serve, Deno.serve, Workers, Next.js route handlers).
   * Pass Workers' `ctx` so work after the response is kept alive with `waitUntil`.
   * @example Bun.serve({ fetch: receiver.fetch })
   */
  fetch(request: Request, ...context: unknown[]): Promise<Response>
  /**
   * Shuts the receiver down gracefully: deliveries arriving from now on are answered 503
   * `shutting_down` (with `Retry-After`), so the service retries them on another instance or after
   * a restart; deliveries already being handled, and handlers still running past the deadline,
   * get up to `timeoutMs` (default 10 s) to finish. Never rejects on slow handlers: it resolves
   * with `drained: false` and the number still running.
   *
   * @example
   * process.once('SIGTERM', async () => {
   *   server.close()
   *   const { drained } = await receiver.close({ timeoutMs: 10_000 })
   *   process.exit(drained ? 0 : 1)
   * })
   */
  close(options?: CloseOptions): Promise<CloseResult>
  /** The options in force, defaults filled in. */
  readonly options: ResolvedOptions
}

const NO_HOOKS: HandleHooks = Object.freeze({})

/**
 * Creates a receiver for the service's webhooks.
 *
 * @example
 * const receiver = createReceiver({ secret: process.env.RING_WEBHOOK_SECRET! })
 * receiver.on('gesture', (event) => vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
 */
export function createReceiver(options: ReceiverOptions): Receiver {
  const resolved = resolveOptions(options)
  const registry = new Registry()
  const lifecycle = new Lifecycle()
  const pipeline = new Pipeline(resolved, registry, lifecycle)
  // Left on the memory store, on a host that spreads requests over instances: said once, at the first delivery.
  const warnOnce = options.store === undefined ? perInstanceDedupWarning(resolved.logger) : undefined
  // The pipeline counts a delivery still running for close(); Promise.resolve passes its promise through.
  const handle = (request: WebhookRequest, hooks: HandleHooks = NO_HOOKS): Promise<WebhookResponse> => {
    warnOnce?.()
    return Promise.resolve(pipeline.handle(request, hooks))
  }
  const receiver: Receiver = {
    options: resolved,
    ...registering(registry, () => receiver),
    handle,
    fetch: (request, ...context) => handle(fromFetchRequest(request), hooksFromArgs(context)).then(toFetchResponse),
    close: async (closeOptions) => {
      const result = await lifecycle.close(resolved.logger, closeOptions)
      pipeline.flushLogs()
      // What is queued gets the same time as the handlers: a stalled sink must not hold the exit.
      await resolved.capture?.flush(closeOptions?.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS)
      return result
    },
  }
  attachLifecycle(receiver, lifecycle)
  return receiver
}
