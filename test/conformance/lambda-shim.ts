// A stand-in for the AWS front doors, so the conformance suite can reach a Lambda handler over
// real HTTP: each request becomes the event API Gateway or an ALB would build from it, and the
// handler's result is written back the way they would write it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { LambdaHttpEvent, LambdaHttpResult, RinghookLambdaHandler } from '@ringhook/aws-lambda'

/** Which trigger the shim plays. */
export type LambdaTrigger = 'http-api' | 'rest-api' | 'alb-multi-value'

async function bytesOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Header pairs as sent, names spelled as on the wire. */
function pairsOf(request: IncomingMessage): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    pairs.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string])
  }
  return pairs
}

function group(pairs: Array<[string, string]>, name: (raw: string) => string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [raw, value] of pairs) {
    const key = name(raw)
    out[key] = [...(out[key] ?? []), value]
  }
  return out
}

const lower = (name: string) => name.toLowerCase()
const last = (multi: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v.at(-1) as string]))

/** The event each trigger builds; only the fields the handler reads and a few that mark the shape. */
function toEvent(trigger: LambdaTrigger, request: IncomingMessage, body: Buffer): LambdaHttpEvent {
  const method = request.method ?? 'GET'
  const pairs = pairsOf(request)
  const empty = body.length === 0
  if (trigger === 'http-api') {
    // Payload 2.0: lowercase names, repeats joined with commas; here every body arrives base64.
    const headers = Object.fromEntries(Object.entries(group(pairs, lower)).map(([k, v]) => [k, v.join(',')]))
    return {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/webhooks',
      rawQueryString: '',
      headers,
      requestContext: { http: { method, path: '/webhooks', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' } },
      ...(empty ? {} : { body: body.toString('base64') }),
      isBase64Encoded: !empty,
    } as LambdaHttpEvent
  }
  if (trigger === 'rest-api') {
    // REST API proxy integration without binary media types: names as sent, a text body.
    const multiValueHeaders = group(pairs, (name) => name)
    return {
      resource: '/webhooks',
      path: '/webhooks',
      httpMethod: method,
      headers: last(multiValueHeaders),
      multiValueHeaders,
      requestContext: { httpMethod: method, stage: 'prod' },
      body: empty ? null : body.toString('utf8'),
      isBase64Encoded: false,
    } as unknown as LambdaHttpEvent
  }
  // An ALB target group with multi-value headers on: only the multi-value map, a base64 body.
  return {
    requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:local:0:targetgroup/shim/0' } },
    httpMethod: method,
    path: '/webhooks',
    multiValueHeaders: group(pairs, lower),
    multiValueQueryStringParameters: {},
    body: body.toString('base64'),
    isBase64Encoded: true,
  }
}

function write(response: ServerResponse, result: LambdaHttpResult): void {
  const headers = result.multiValueHeaders ?? result.headers ?? {}
  response.writeHead(result.statusCode, headers).end(result.body)
}

/** A node:http server that invokes the handler once per request, as the chosen trigger would. */
export function lambdaShim(handler: RinghookLambdaHandler, trigger: LambdaTrigger): Server {
  return createServer((request, response) => {
    bytesOf(request)
      .then((body) => handler(toEvent(trigger, request, body)))
      .then((result) => write(response, result))
      .catch(() => response.writeHead(502).end('{"message":"Internal server error"}'))
  })
}
