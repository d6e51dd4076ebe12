import { toWebhookRequest } from './node-request.js'
import type { RinghookOptions } from './ringhook.js'

/**
 * The old name of {@link RinghookOptions}, the options type every adapter names the same way.
 *
 * @deprecated Use `RinghookOptions`; removed in 0.3.0.
 */
export type NodeMiddlewareOptions = RinghookOptions

/**
 * The old name of {@link toWebhookRequest}, the request translation every adapter names the same way
 * (exported by `@ringhook/core` in 0.1).
 *
 * @deprecated Use `toWebhookRequest`; removed in 0.3.0.
 */
export const fromNodeRequest: typeof toWebhookRequest = toWebhookRequest
