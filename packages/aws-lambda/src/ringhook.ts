import type { Receiver } from '@ringhook/core'
import type { WebhookResponse } from '@ringhook/core/adapter'
import { type LambdaHttpEvent, toWebhookRequest } from './request.js'

/**
 * What the handler returns; it fits the result types of every trigger it reads
 * (`APIGatewayProxyResult`, `APIGatewayProxyStructuredResultV2`, `ALBResult`).
 */
export interface LambdaHttpResult {
  /** The receiver's status. */
  statusCode: number
  /** Set unless the event came from an ALB in multi-value mode, which reads only `multiValueHeaders`. */
  headers?: Record<string, string>
  /** Set when the event came from an ALB in multi-value mode. */
  multiValueHeaders?: Record<string, string[]>
  /** The receiver's body: JSON text. */
  body: string
  /** Always false: the body is text. */
  isBase64Encoded: false
}

/** An async Lambda handler; assignable to `APIGatewayProxyHandler`, `APIGatewayProxyHandlerV2` and `ALBHandler`. */
export type RinghookLambdaHandler = (event: LambdaHttpEvent) => Promise<LambdaHttpResult>

/**
 * Mounts a receiver as a Lambda handler for API Gateway (REST and HTTP APIs), Function URLs and
 * ALBs; the event's shape tells which. Lambda freezes the function once the handler returns, so
 * handlers still running past the receiver's deadline may never finish: use `onDeadline: 'retry'`.
 *
 * @example
 * const receiver = createReceiver({ secret: process.env.RING_WEBHOOK_SECRET!, onDeadline: 'retry' })
 * export const handler = ringhook(receiver)
 */
export function ringhook(receiver: Receiver): RinghookLambdaHandler {
  return async function ringhookLambda(event) {
    const request = toWebhookRequest(event)
    if (!request) throw new TypeError(NOT_HTTP)
    return toResult(await receiver.handle(request), answersMultiValue(event))
  }
}

const NOT_HTTP =
  'ringhook(receiver) received an event that is not an HTTP request. Trigger this function from API ' +
  'Gateway (REST or HTTP API), a Function URL or an Application Load Balancer.'

/** An ALB in multi-value mode sends only `multiValueHeaders`, and reads only those in the answer. */
const answersMultiValue = (event: LambdaHttpEvent): boolean =>
  'multiValueHeaders' in event && event.multiValueHeaders != null && event.headers == null

function toResult(response: WebhookResponse, multiValue: boolean): LambdaHttpResult {
  const { status: statusCode, headers, body } = response
  if (!multiValue) return { statusCode, headers, body, isBase64Encoded: false }
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]))
  return { statusCode, multiValueHeaders, body, isBase64Encoded: false }
}
