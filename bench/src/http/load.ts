import autocannon from 'autocannon'
import { eventBody } from '../fixtures.js'
import { percentile } from '../stats.js'

/** Signs one fresh delivery with a contender's scheme. */
export type Signer = (body: Buffer) => Record<string, string>

export interface LoadOptions {
  port: number
  sign: Signer
  connections: number
  durationS: number
  /** Deliveries to sign before the clock starts; more are signed on the fly if the server outruns them. */
  presign: number
}

export interface LoadResult {
  /** 2xx responses per second. */
  rps: number
  p50Ms: number
  p99Ms: number
  /** Connection errors, timeouts and non-2xx answers together. */
  errors: number
  /** Requests that had to be signed during the run because the pre-signed pool ran out. */
  signedLive: number
}

interface Delivery {
  headers: Record<string, string>
  body: Buffer
}

function delivery(sign: Signer): Delivery {
  const body = eventBody()
  // autocannon adds Content-Length itself; a second one would be a malformed request.
  const { 'content-length': _length, ...headers } = sign(body)
  return { headers, body }
}

/**
 * One autocannon run against 127.0.0.1:port, every request a distinct, freshly signed delivery so
 * that no server can answer from its dedup store. Latency is recorded per response at full
 * precision (autocannon's own histogram rounds to whole milliseconds).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool: (Delivery | undefined)[] = []
  for (let i = 0; i < options.presign; i++) pool.push(delivery(options.sign))
  let next = 0
  let signedLive = 0
  const latencies = new Latencies(options.presign)
  const nextDelivery = (): Delivery => {
    const item = pool[next]
    if (!item) {
      signedLive += 1
      return delivery(options.sign)
    }
    pool[next++] = undefined // sent once, then garbage
    return item
  }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${options.port}`,
        connections: options.connections,
        duration: options.durationS,
        requests: [
          {
            method: 'POST',
            path: '/webhooks',
            setupRequest: (request) => ({ ...request, ...nextDelivery() }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    )
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.add(responseTime))
  })
  const sorted = latencies.sorted()
  return {
    rps: result['2xx'] / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: result.errors + result.timeouts + result.non2xx,
    signedLive,
  }
}

/** A growable list of response times in milliseconds. */
class Latencies {
  #values: Float64Array
  #count = 0

  constructor(capacity: number) {
    this.#values = new Float64Array(Math.max(capacity, 1024))
  }

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2)
      grown.set(this.#values)
      this.#values = grown
    }
    this.#values[this.#count++] = ms
  }

  sorted(): Float64Array {
    return this.#values.subarray(0, this.#count).sort()
  }
}
