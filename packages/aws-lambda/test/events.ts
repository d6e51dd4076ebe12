// Lambda events as each trigger delivers them, following the shapes AWS documents for API Gateway
// REST APIs (proxy integration), HTTP APIs (payload 2.0), Function URLs and ALB targets. Only the
// request itself varies; the surrounding context is what a real invocation carries.
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda'

/** What the service sent: the exact body bytes (or text) and its headers, names as spelled on the wire. */
export interface Sent {
  method?: string
  body: string | Uint8Array
  headers: Record<string, string>
  /** Whether the trigger hands the body over base64-encoded. */
  base64?: boolean
}

const TIME = '23/Nov/2026:10:00:00 +0000'
const EPOCH = 1_795_428_000_000

const bytesOf = (body: string | Uint8Array) =>
  typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body)

/** The body field: base64 of the bytes, or the text the gateway decoded them to. */
const bodyField = ({ body, base64 }: Sent) =>
  base64 ? bytesOf(body).toString('base64') : bytesOf(body).toString('utf8')

const lowercase = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))

const single = (multi: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values.at(-1) as string]))

/** API Gateway REST API, Lambda proxy integration: names as the client spelled them, both header maps. */
export function restApiEvent(sent: Sent, multiValueHeaders?: Record<string, string[]>): APIGatewayProxyEvent {
  const multi = multiValueHeaders ?? Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k, [v]]))
  const method = sent.method ?? 'POST'
  return {
    resource: '/webhooks',
    path: '/webhooks',
    httpMethod: method,
    headers: {
      Host: 'abc123defg.execute-api.eu-west-1.amazonaws.com',
      'User-Agent': 'ring-haptics-webhooks/1.0',
      'X-Amzn-Trace-Id': 'Root=1-674170a0-1a2b3c4d5e6f7a8b9c0d1e2f',
      'X-Forwarded-For': '203.0.113.7',
      'X-Forwarded-Port': '443',
      'X-Forwarded-Proto': 'https',
      ...single(multi),
    },
    multiValueHeaders: {
      Host: ['abc123defg.execute-api.eu-west-1.amazonaws.com'],
      'User-Agent': ['ring-haptics-webhooks/1.0'],
      'X-Amzn-Trace-Id': ['Root=1-674170a0-1a2b3c4d5e6f7a8b9c0d1e2f'],
      'X-Forwarded-For': ['203.0.113.7'],
      'X-Forwarded-Port': ['443'],
      'X-Forwarded-Proto': ['https'],
      ...multi,
    },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123defg',
      authorizer: null,
      domainName: 'abc123defg.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123defg',
      extendedRequestId: 'B2cD3eF4gH5iJ6k=',
      httpMethod: method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: '203.0.113.7',
        user: null,
        userAgent: 'ring-haptics-webhooks/1.0',
        userArn: null,
      },
      path: '/prod/webhooks',
      protocol: 'HTTP/1.1',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTime: TIME,
      requestTimeEpoch: EPOCH,
      resourceId: 'a1b2c3',
      resourcePath: '/webhooks',
      stage: 'prod',
    },
    body: sent.method === 'GET' ? null : bodyField(sent),
    isBase64Encoded: Boolean(sent.base64),
  }
}

/** API Gateway HTTP API, payload 2.0: lowercase names, a repeated header joined with commas. */
export function httpApiEvent(sent: Sent): APIGatewayProxyEventV2 {
  const method = sent.method ?? 'POST'
  return {
    version: '2.0',
    routeKey: 'POST /webhooks',
    rawPath: '/webhooks',
    rawQueryString: '',
    headers: {
      'content-length': String(bytesOf(sent.body).length),
      host: 'abc123defg.execute-api.eu-west-1.amazonaws.com',
      'user-agent': 'ring-haptics-webhooks/1.0',
      'x-amzn-trace-id': 'Root=1-674170a0-1a2b3c4d5e6f7a8b9c0d1e2f',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      ...lowercase(sent.headers),
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123defg',
      domainName: 'abc123defg.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123defg',
      http: {
        method,
        path: '/webhooks',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'ring-haptics-webhooks/1.0',
      },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: 'POST /webhooks',
      stage: '$default',
      time: TIME,
      timeEpoch: EPOCH,
    },
    ...(sent.method === 'GET' ? {} : { body: bodyField(sent) }),
    isBase64Encoded: Boolean(sent.base64),
  }
}

/** A Lambda Function URL: the payload 2.0 shape, with the URL's own domain and `$default` route. */
export function functionUrlEvent(sent: Sent): APIGatewayProxyEventV2 {
  const event = httpApiEvent(sent)
  const domainName = 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6.lambda-url.eu-west-1.on.aws'
  return {
    ...event,
    routeKey: '$default',
    headers: { ...event.headers, host: domainName, 'x-amzn-tls-version': 'TLSv1.3' },
    requestContext: {
      ...event.requestContext,
      accountId: 'anonymous',
      apiId: 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6',
      domainName,
      domainPrefix: 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6',
      routeKey: '$default',
    },
  }
}

const TARGET_GROUP = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/ringhook/6d0ecf831eec9f09'

/**
 * An ALB target. Without multi-value headers, a repeated header arrives with its last value only;
 * with them, only `multiValueHeaders` is sent, and the answer must use it too.
 */
export function albEvent(sent: Sent, options: { multiValue?: Record<string, string[]> | true } = {}): ALBEvent {
  const base = {
    'content-length': String(bytesOf(sent.body).length),
    host: 'ringhook-alb-1234567890.eu-west-1.elb.amazonaws.com',
    'user-agent': 'ring-haptics-webhooks/1.0',
    'x-amzn-trace-id': 'Root=1-674170a0-1a2b3c4d5e6f7a8b9c0d1e2f',
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
  }
  const request = {
    requestContext: { elb: { targetGroupArn: TARGET_GROUP } },
    httpMethod: sent.method ?? 'POST',
    path: '/webhooks',
    body: sent.method === 'GET' ? '' : bodyField(sent),
    isBase64Encoded: Boolean(sent.base64),
  }
  if (!options.multiValue)
    return { ...request, queryStringParameters: {}, headers: { ...base, ...lowercase(sent.headers) } }
  const multi =
    options.multiValue === true
      ? Object.fromEntries(Object.entries(lowercase(sent.headers)).map(([k, v]) => [k, [v]]))
      : options.multiValue
  return {
    ...request,
    multiValueQueryStringParameters: {},
    multiValueHeaders: { ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, [v]])), ...multi },
  }
}
