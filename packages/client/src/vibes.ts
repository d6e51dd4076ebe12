import {
  type AwaitTriggerResult,
  awaitTriggerResultSchema,
  type QueuedTriggerResult,
  queuedTriggerResultSchema,
  TRIGGER_LIMITS,
  type TriggerResult,
  type VibePatterns,
  vibePatternsSchema,
} from '@ringhook/core/api'
import { type CallOptions, type ClientContext, read } from './context.js'
import type { LinkedResult } from './dedup-link.js'
import { userKey } from './limiter.js'
import { prepareTrigger, type TriggerInput } from './trigger-input.js'

/** An await-mode trigger: the answer carries the user's `response`. */
export type AwaitTriggerInput = TriggerInput & {
  /** The mode. */
  response_mode: 'await'
}
/** A webhook- (default) or poll-mode trigger: the answer carries `delivery` or `delivery_status`. */
export type QueuedTriggerInput = TriggerInput & {
  /** The mode; `webhook` when omitted. */
  response_mode?: 'webhook' | 'poll' | undefined
}

export interface TriggerOptions extends CallOptions {
  /** Overrides the client's `allowTruncation` for this call. */
  allowTruncation?: boolean
}

/** Vibes: the patterns the service knows, and triggers. */
export interface VibesApi {
  /** GET /vibes/patterns: the patterns and timing limits. */
  patterns(options?: CallOptions): Promise<VibePatterns>
  /**
   * POST /vibes/trigger. Validated before it is sent; `not_enabled` is a result with
   * `success: false`, not an error.
   * @example
   * const result = await client.vibes.trigger({ app_id, user_app_id: '@me', vibe: vibe('tap').notify('Lunch?'),
   *   response_config: { type: 'yes_no_dismiss' }, response_mode: 'await', timeout_ms: 20_000 })
   * if (result.response.status === 'responded') console.log(result.response.value)
   */
  trigger(input: AwaitTriggerInput, options?: TriggerOptions): Promise<AwaitTriggerResult & LinkedResult>
  /** A webhook- or poll-mode trigger: the answer says how the vibe was delivered, or that it is queued. */
  trigger(input: QueuedTriggerInput, options?: TriggerOptions): Promise<QueuedTriggerResult>
  /** A trigger whose mode is known only at run time: the answer is either kind. */
  trigger(input: TriggerInput, options?: TriggerOptions): Promise<TriggerResult & LinkedResult>
}

export function vibesApi(ctx: ClientContext): VibesApi {
  return {
    patterns: (options = {}) =>
      read(ctx, { endpoint: '/vibes/patterns', path: '/vibes/patterns', schema: vibePatternsSchema }, options),
    trigger: ((input: TriggerInput, options: TriggerOptions = {}) =>
      trigger(ctx, input, options)) as VibesApi['trigger'],
  }
}

async function trigger(
  ctx: ClientContext,
  input: TriggerInput,
  options: TriggerOptions,
): Promise<TriggerResult & LinkedResult> {
  const body = prepareTrigger(input, options.allowTruncation ?? ctx.options.allowTruncation)
  const awaiting = body.response_mode === 'await'
  // Await mode holds the connection for up to timeout_ms; the request must outlive that.
  const timeoutMs = awaiting
    ? (body.timeout_ms ?? TRIGGER_LIMITS.defaultTimeoutMs) + ctx.options.awaitMarginMs
    : ctx.options.timeoutMs
  const result: TriggerResult & LinkedResult = await ctx.send({
    method: 'POST',
    endpoint: '/vibes/trigger',
    path: '/vibes/trigger',
    body,
    schema: awaiting ? awaitTriggerResultSchema : queuedTriggerResultSchema,
    retry: 'trigger',
    user: userKey(body.app_id, body.user_app_id),
    timeoutMs,
    signal: options.signal,
  })
  if (result.warnings && result.warnings.length > 0) {
    ctx.options.logger.warn(
      { app_id: body.app_id, event_id: result.event_id, warnings: result.warnings },
      'The service truncated response_config',
    )
  }
  if (!result.event_id || !ctx.link) return result
  ctx.link.remember(result.event_id, body.app_id, body.user_app_id)
  if (result.response_mode === 'await' && result.response.status === 'responded' && result.response.value) {
    result.alreadyHandled = await ctx.link.markHandled({
      appId: body.app_id,
      eventId: result.event_id,
      response: result.response.value,
      respondedAt: result.response.responded_at ?? '',
    })
  }
  return result
}
