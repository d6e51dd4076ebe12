// A tiny gateway between the service and the app, like a load balancer: it forwards each webhook
// untouched and can be told to spoil the next matching one, so the demo shows retries happen.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * `down`: the app is unreachable for one attempt (503, the app never sees it).
 * `lose-ack`: the app gets and handles it, but its answer is lost (502 to the service).
 */
export type Fault = 'down' | 'lose-ack'

/** One webhook that went through, as the gateway saw it. */
export interface Exchange {
  /** The webhook's `event`, or `?` when the body was not JSON. */
  event: string
  /** What the app answered; null when it never saw the request. */
  appStatus: number | null
  /** What the service got back. */
  status: number
  /** The app answered from its dedup store (`x-ringhook-duplicate: true`). */
  duplicate: boolean
  fault: Fault | null
}

export interface Gateway {
  /** Where the service posts webhooks. */
  url: string
  exchanges: Exchange[]
  /** Spoils the next webhook whose parsed body matches, once. */
  arm(fault: Fault, match: (body: Record<string, unknown>) => boolean): void
  close(): Promise<void>
}

const FORWARDED = ['content-type', 'x-service-signature', 'x-service-timestamp', 'user-agent']
const RETURNED = ['content-type', 'retry-after', 'x-ringhook-duplicate']

/** Starts a gateway on 127.0.0.1 in front of `upstream` (the app's webhook URL). */
export async function startGateway(upstream: string, onExchange: (exchange: Exchange) => void): Promise<Gateway> {
  const exchanges: Exchange[] = []
  let armed: { fault: Fault; match: (body: Record<string, unknown>) => boolean } | undefined

  const record = (exchange: Exchange) => {
    exchanges.push(exchange)
    onExchange(exchange)
  }

  const server = createServer(async (request, response) => {
    const body = await readAll(request)
    const parsed = parse(body)
    const event = typeof parsed?.event === 'string' ? parsed.event : '?'
    const fault = armed && parsed && armed.match(parsed) ? armed.fault : null
    if (fault) armed = undefined
    if (fault === 'down') {
      record({ event, appStatus: null, status: 503, duplicate: false, fault })
      return reply(response, 503, { 'content-type': 'application/json' }, '{"error":"upstream unavailable"}')
    }
    try {
      const answer = await fetch(upstream, { method: 'POST', headers: pick(request.headers, FORWARDED), body })
      const text = await answer.text()
      const duplicate = answer.headers.get('x-ringhook-duplicate') === 'true'
      if (fault === 'lose-ack') {
        record({ event, appStatus: answer.status, status: 502, duplicate, fault })
        return reply(response, 502, { 'content-type': 'application/json' }, '{"error":"upstream connection reset"}')
      }
      record({ event, appStatus: answer.status, status: answer.status, duplicate, fault: null })
      reply(response, answer.status, pick(answer.headers, RETURNED), text)
    } catch {
      record({ event, appStatus: null, status: 502, duplicate: false, fault: null })
      reply(response, 502, { 'content-type': 'application/json' }, '{"error":"upstream unreachable"}')
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    exchanges,
    arm: (fault, match) => {
      armed = { fault, match }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function readAll(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  // A copy on a plain ArrayBuffer, which fetch takes as a body.
  return new Uint8Array(Buffer.concat(chunks))
}

function parse(body: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body))
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function pick(headers: IncomingMessage['headers'] | Headers, names: string[]): Record<string, string> {
  const picked: Record<string, string> = {}
  for (const name of names) {
    const value = headers instanceof Headers ? headers.get(name) : headers[name]
    if (typeof value === 'string') picked[name] = value
  }
  return picked
}

function reply(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  response.writeHead(status, headers).end(body)
}
