import { bodyConsumed, type WebhookRequest } from '@ringhook/core/adapter'
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda'

/**
 * The HTTP events ringhook reads: API Gateway REST APIs (and HTTP APIs on payload 1.0), HTTP APIs on
 * payload 2.0, Lambda Function URLs (the 2.0 shape), and Application Load Balancers.
 */
export type LambdaHttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent

type Values = Record<string, string | string[]>

const isV2 = (event: LambdaHttpEvent): event is APIGatewayProxyEventV2 =>
  typeof (event as APIGatewayProxyEventV2 | null)?.requestContext?.http?.method === 'string'

/** The event as the core's request, or undefined when it is not an HTTP event at all. */
export function toWebhookRequest(event: LambdaHttpEvent): WebhookRequest | undefined {
  // Direct invocations may pass anything, null included: only an HTTP event has a method.
  const method = isV2(event) ? event.requestContext.http.method : (event as { httpMethod?: unknown } | null)?.httpMethod
  if (typeof method !== 'string') return undefined
  // REST APIs send both maps and ALBs in multi-value mode only the second; the multi-value map is
  // the one with every value of a repeated header, so a duplicated signature header is never
  // narrowed to one of its values.
  const multi = 'multiValueHeaders' in event ? event.multiValueHeaders : undefined
  const headers = lowercased(multi ?? event.headers)
  const { body } = event as { body?: unknown }
  if (body != null && typeof body !== 'string') return { method, headers, rawBody: null, bodyAlreadyParsed: PARSED }
  return { method, headers, rawBody: bodyOf(event) }
}

const PARSED = bodyConsumed(
  'A middleware (@middy/http-json-body-parser, for instance) replaced event.body, the text the gateway ' +
    'delivered, with the parsed object. Export ringhook(receiver) as the handler itself, or put it before any ' +
    'middleware that parses the body.',
)

/**
 * Header names lowercased, as the core looks them up. REST APIs pass names as the client spelled
 * them, so one header may arrive under two spellings: their values are kept together.
 */
function lowercased(headers: Record<string, string | string[] | undefined> | null | undefined): Values {
  const out: Values = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    const seen = out[key]
    out[key] = seen === undefined ? value : [seen, value].flat()
  }
  return out
}

/**
 * The bytes as sent. A base64 body (binary media types, ALBs and Function URLs for some content
 * types) is decoded to bytes, never to text, so any byte survives. A text body is the UTF-8 the
 * gateway decoded; the service signs UTF-8 JSON, so the core encodes it back to the signed bytes.
 */
function bodyOf(event: LambdaHttpEvent): Uint8Array | string | null {
  const { body } = event
  if (body === undefined || body === null) return null
  return event.isBase64Encoded ? Buffer.from(body, 'base64') : body
}
