// The load generator: plays the service (and an attacker) against one receiver for a bounded
// time, over keep-alive connections on loopback. Valid deliveries are sent until acknowledged,
// as the service does, re-signed on every attempt; some are sent twice at once, some again after
// their acknowledgement; the rest are forged, tampered with or stale. Everything sent and every
// answer is counted, so the runner can hold the server's handler counts against it.
import { randomUUID } from 'node:crypto'
import { signWebhook } from '@ringhook/core/signature'

export interface LoadOptions {
  url: string
  secret: string
  seconds: number
  /** Keeps going past `seconds` until this many requests were answered (a weighing needs the volume). */
  minRequests?: number
  /** Requests in flight at once. */
  concurrency: number
  /** Seed of the traffic mix, so a run can be repeated. */
  seed: number
  /**
   * Delivery ids are numbers, so the server can count them in a preallocated array (a growing map
   * would be the soak's own memory growth): valid ones from `idBase`, forged ones from
   * `idBase + capacity`, at most `capacity` of each.
   */
  idBase: number
  capacity: number
}

export interface LoadResult {
  seconds: number
  requests: number
  /** Answers by status. */
  statuses: Record<number, number>
  /** Every valid delivery sent, by id, with whether it was finally acknowledged. */
  deliveries: Map<number, { acknowledged: boolean; failFirst: boolean }>
  /** Ids of forged, tampered and stale deliveries: no handler may ever see them. */
  rejectedIds: Set<number>
  duplicatesSent: number
  concurrentCopies: number
  retries: number
  /** 5xx answers to valid traffic, beyond the one planned failure of a `fail_first` delivery. */
  unexpected5xx: number
  /** Answers that were not what the traffic deserved (e.g. a forged delivery not answered 401). */
  wrongAnswers: Array<{ kind: string; status: number }>
  latencyMs: { p50: number; p99: number; max: number }
}

const EVENTS = ['gesture', 'app.installed', 'app.activated', 'app.deactivated', 'notification.responded'] as const

/** A small seeded PRNG (mulberry32): the mix is reproducible from `seed`. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function payloadFor(id: number, rand: () => number, failFirst: boolean): string {
  const event = EVENTS[Math.floor(rand() * EVENTS.length)] as (typeof EVENTS)[number]
  return JSON.stringify({
    event,
    ...(event === 'gesture' ? { gesture_type: 'double_tap' } : {}),
    user_app_id: randomUUID(),
    app_id: 'app_soak',
    timestamp: new Date().toISOString(),
    data: event === 'notification.responded' ? { event_id: `evt_${id}`, response: 'yes' } : {},
    soak_id: id,
    ...(failFirst ? { fail_first: true } : {}),
  })
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const rand = random(options.seed)
  const result: LoadResult = {
    seconds: options.seconds,
    requests: 0,
    statuses: {},
    deliveries: new Map(),
    rejectedIds: new Set(),
    duplicatesSent: 0,
    concurrentCopies: 0,
    retries: 0,
    unexpected5xx: 0,
    wrongAnswers: [],
    latencyMs: { p50: 0, p99: 0, max: 0 },
  }
  const latencies: number[] = []
  /** Recently acknowledged deliveries, which the service may send again. */
  const recent: number[] = []
  const bodies = new Map<number, string>()
  let valid = 0
  let forged = 0
  const nextId = (offset: number, n: number) => {
    if (n >= options.capacity) throw new Error(`more than ${options.capacity} deliveries: raise the capacity`)
    return options.idBase + offset + n
  }

  async function send(body: string, secret: string, timestamp: number, tamper = false): Promise<number> {
    const { headers } = await signWebhook({ secret, body, timestamp })
    const started = performance.now()
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body: tamper ? body.replace('"app_soak"', '"app_soaK"') : body,
    })
    await response.arrayBuffer()
    latencies.push(performance.now() - started)
    result.requests++
    result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1
    return response.status
  }

  /** The service's side of one delivery: send until a 2xx, re-signing each attempt. */
  async function deliver(id: number, attempt = 0): Promise<void> {
    const entry = result.deliveries.get(id)
    const body = bodies.get(id)
    if (!entry || body === undefined) return
    for (let tries = attempt; tries < 50; tries++) {
      if (tries > attempt) result.retries++
      const status = await send(body, options.secret, nowSeconds())
      if (status >= 200 && status < 300) {
        entry.acknowledged = true
        recent.push(id)
        // Older deliveries are not sent again: forget their bodies, keep the generator's memory flat.
        if (recent.length > 500) bodies.delete(recent.shift() as number)
        return
      }
      const planned = status === 500 && entry.failFirst && tries === 0
      if (status >= 500 && !planned) result.unexpected5xx++
      if (status !== 409 && status < 500) result.wrongAnswers.push({ kind: 'valid', status })
      await new Promise((resolve) => setTimeout(resolve, 5 + rand() * 20))
    }
  }

  function newDelivery(): number {
    const id = nextId(0, valid++)
    const failFirst = rand() < 0.05
    result.deliveries.set(id, { acknowledged: false, failFirst })
    bodies.set(id, payloadFor(id, rand, failFirst))
    return id
  }

  async function expectRejected(kind: string, secret: string, timestamp: number, tamper = false) {
    const id = nextId(options.capacity, forged++)
    result.rejectedIds.add(id)
    const status = await send(payloadFor(id, rand, false), secret, timestamp, tamper)
    if (status !== 401) result.wrongAnswers.push({ kind, status })
  }

  async function step(): Promise<void> {
    const roll = rand()
    if (roll < 0.6) return deliver(newDelivery())
    if (roll < 0.7) {
      // The service sends an acknowledged delivery again: the first answer is replayed.
      const id = recent[Math.floor(rand() * recent.length)]
      if (id === undefined) return deliver(newDelivery())
      result.duplicatesSent++
      return deliver(id)
    }
    if (roll < 0.75) {
      // Two copies at once: one runs, the other waits (409) and is then answered from the store.
      const id = newDelivery()
      result.concurrentCopies++
      await Promise.all([deliver(id), deliver(id)])
      return
    }
    if (roll < 0.85) return expectRejected('forged', 'whsec_not_the_secret', nowSeconds())
    if (roll < 0.9) return expectRejected('tampered', options.secret, nowSeconds(), true)
    return expectRejected('stale', options.secret, nowSeconds() - 400)
  }

  const end = Date.now() + options.seconds * 1000
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < end || result.requests < (options.minRequests ?? 0)) await step()
    }),
  )
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  result.latencyMs = { p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? 0 }
  return result
}
