import { connect, type Socket } from 'node:net'
import { eventBody } from '../fixtures.js'
import { percentile } from '../stats.js'
import { type ResponseEnd, responseEnd } from './response-reader.js'

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
  /** The load generator's own CPU time (user + system) over the run's wall time: 1 is a whole CPU. */
  loadCpuShare: number
}

/** A response slower than this counts as a timeout and its connection is replaced. */
const TIMEOUT_MS = 10_000

/** One delivery as the bytes of a whole HTTP/1.1 request, signed with a contender's scheme. */
function requestBytes(port: number, sign: Signer): Buffer {
  const body = eventBody()
  let head = `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`
  for (const [name, value] of Object.entries(sign(body))) head += `${name}: ${value}\r\n`
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body])
}

/**
 * A run of keep-alive connections against 127.0.0.1:port, each with one request in flight at a
 * time; every request is a distinct, freshly signed delivery, so that no server can answer from its
 * dedup store. The requests are whole byte strings built before the clock starts and a response is
 * read only as far as its status and length, so the load generator costs a few µs a request and
 * leaves the server to be what limits the rate. Latency is per response, at full precision.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool: (Buffer | undefined)[] = []
  for (let i = 0; i < options.presign; i++) pool.push(requestBytes(options.port, options.sign))
  const tally = new Tally(options.presign)
  let next = 0
  const nextRequest = (): Buffer => {
    const item = pool[next]
    if (!item) {
      tally.signedLive += 1
      return requestBytes(options.port, options.sign)
    }
    pool[next++] = undefined // sent once, then garbage
    return item
  }
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const deadline = started + options.durationS * 1000
  const connections = Array.from(
    { length: options.connections },
    () => new LoadConnection(options.port, nextRequest, tally, deadline),
  )
  // A response still awaited at the deadline would not be counted: stop every connection then.
  const stop = setTimeout(() => {
    for (const connection of connections) connection.end()
  }, options.durationS * 1000)
  await Promise.all(connections.map((connection) => connection.done))
  clearTimeout(stop)
  const cpu = process.cpuUsage(cpuBefore)
  const sorted = tally.latencies.sorted()
  return {
    rps: tally.ok / options.durationS,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: tally.errors,
    signedLive: tally.signedLive,
    loadCpuShare: (cpu.user + cpu.system) / 1000 / (performance.now() - started),
  }
}

/** What the connections of one run count together. */
class Tally {
  ok = 0
  errors = 0
  signedLive = 0
  readonly latencies: Latencies

  constructor(capacity: number) {
    this.latencies = new Latencies(capacity)
  }
}

/**
 * One connection: sends a request, waits for its whole response, sends the next, until the
 * deadline. A connection the server closes, or that fails, is replaced by a new one.
 */
class LoadConnection {
  readonly done: Promise<void>
  #socket!: Socket
  #received: Buffer | undefined
  #sentAt = 0
  #finish!: () => void
  #ended = false
  readonly #timer: NodeJS.Timeout

  constructor(
    readonly port: number,
    readonly nextRequest: () => Buffer,
    readonly tally: Tally,
    readonly deadline: number,
  ) {
    this.done = new Promise((resolve) => {
      this.#finish = resolve
    })
    this.#timer = setInterval(() => this.#checkTimeout(), 1000)
    this.#open()
  }

  #open(): void {
    const socket = connect({ port: this.port, host: '127.0.0.1', noDelay: true })
    this.#socket = socket
    this.#received = undefined
    socket.once('connect', () => this.#send())
    socket.on('data', (chunk: Buffer) => this.#onData(socket, chunk))
    socket.on('error', () => this.#fail(socket))
    socket.on('close', () => this.#fail(socket))
  }

  #send(): void {
    if (performance.now() >= this.deadline) {
      this.end()
      return
    }
    this.#sentAt = performance.now()
    this.#socket.write(this.nextRequest())
  }

  #onData(socket: Socket, chunk: Buffer): void {
    if (socket !== this.#socket || this.#sentAt === 0 || this.#ended) return
    const bytes = this.#received ? Buffer.concat([this.#received, chunk]) : chunk
    let end: ResponseEnd | undefined
    try {
      end = responseEnd(bytes)
    } catch {
      this.#fail(socket)
      return
    }
    this.#received = end ? undefined : bytes
    if (end) this.#answered(socket, end)
  }

  /** Counts a whole answer (if it came before the deadline), then sends the next request. */
  #answered(socket: Socket, { status, close }: ResponseEnd): void {
    const now = performance.now()
    if (now < this.deadline) {
      if (status >= 200 && status < 300) {
        this.tally.ok += 1
        this.tally.latencies.add(now - this.#sentAt)
      } else this.tally.errors += 1
    }
    this.#sentAt = 0
    if (close) this.#replace(socket)
    else this.#send()
  }

  /** An error, a close before the answer, or bytes that are not HTTP: counted, and the connection replaced. */
  #fail(socket: Socket): void {
    if (socket !== this.#socket || this.#ended) return
    if (this.#sentAt !== 0 && performance.now() < this.deadline) this.tally.errors += 1
    this.#sentAt = 0
    this.#replace(socket)
  }

  #replace(socket: Socket): void {
    socket.destroy()
    if (performance.now() >= this.deadline) this.end()
    else this.#open()
  }

  #checkTimeout(): void {
    if (this.#sentAt !== 0 && performance.now() - this.#sentAt > TIMEOUT_MS) this.#fail(this.#socket)
  }

  /** Closes the connection, whatever it awaits: the run is over. */
  end(): void {
    if (this.#ended) return
    this.#ended = true
    clearInterval(this.#timer)
    this.#socket.destroy()
    this.#finish()
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
