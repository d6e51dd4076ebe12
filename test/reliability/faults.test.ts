// Faults a receiver meets in production, on every adapter of the conformance suite: handlers
// that throw, reject, hang or run late, a dedup store that fails, clients that hang up, trickle
// or never stop sending. For each: what the service is answered on each of its attempts, that
// the process survives, and that the event is handled exactly once over the service's retries.
//
// Time is scaled by 1/50 so the suite takes seconds: the service's retries (1 s, 5 s, 30 s)
// become 20, 100 and 600 ms, the receiver's deadline 200 ms, its in-flight claim 300 ms and its
// body timeout 200 ms.
import { createReceiver, type Receiver, type ReceiverOptions, type RinghookError } from '@ringhook/core'
import { createMemoryStore, type DedupStore } from '@ringhook/core/store'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { type AdapterUnderTest, adapters, type Mounted } from '../conformance/adapters.js'
import { gesture, lifecycle, NOW_MS, NOW_S, post, SECRET, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { observe } from './observations.js'
import { portOf, rawConnection, recordingLogger, requestHead, sleep, until, watchProcess } from './support.js'

const RETRY_WAITS_MS = [20, 100, 600]
const TIMING = { deadlineMs: 200, bodyTimeoutMs: 200, dedup: { inFlightTtlMs: 300 } } as const

/**
 * The service: signs each attempt anew, retries on anything but a 2xx, gives up after 3 retries.
 * `answered` hears each answer as it comes, before the wait for the next attempt.
 */
async function service(
  url: string,
  payload: Record<string, unknown>,
  answered: (statuses: readonly number[]) => void = () => {},
): Promise<number[]> {
  const statuses: number[] = []
  for (let attempt = 0; attempt <= RETRY_WAITS_MS.length; attempt++) {
    const { status } = await post(url, await signed(payload, { timestamp: NOW_S + attempt }))
    statuses.push(status)
    answered(statuses)
    if (status >= 200 && status < 300) break
    const wait = RETRY_WAITS_MS[attempt]
    if (wait !== undefined) await sleep(wait)
  }
  return statuses
}

const arrows = (statuses: readonly (number | string)[]) => statuses.join(' → ')

/** A store that fails the operations named in `failing` while `failing` holds them. */
function flakyStore(failing: Set<'claim' | 'complete' | 'release'>): DedupStore {
  const inner = createMemoryStore()
  const guard = (op: 'claim' | 'complete' | 'release') => {
    if (failing.has(op)) throw new Error(`store ${op} failed: connection refused`)
  }
  return {
    async claim(key, ttl) {
      guard('claim')
      return inner.claim(key, ttl)
    },
    async complete(key, token, reply, ttl) {
      guard('complete')
      return inner.complete(key, token, reply, ttl)
    },
    async release(key, token) {
      guard('release')
      return inner.release(key, token)
    },
  }
}

const servers: Mounted[] = []

/**
 * Mounts a receiver on an adapter for one test, keeping every log line and reported error. Its
 * store keeps real time (the signing clock is fixed), so that in-flight claims do lapse.
 * Servers are closed when the file is done: tests run concurrently.
 */
async function mountOn(
  adapter: AdapterUnderTest,
  setup: (receiver: Receiver) => void,
  options: Partial<ReceiverOptions> = {},
) {
  const logger = recordingLogger()
  const errors: RinghookError[] = []
  const receiver = createReceiver({
    secret: SECRET,
    now: () => NOW_MS,
    logger,
    store: createMemoryStore(),
    ...TIMING,
    ...options,
  })
  receiver.onError((error) => void errors.push(error))
  setup(receiver)
  const mounted = await adapter.mount(receiver)
  servers.push(mounted)
  return { url: mounted.url, lines: logger.lines, errors }
}

/** Like `mountOn`, and hands back the receiver too. */
async function mountWithReceiver(adapter: AdapterUnderTest) {
  const logger = recordingLogger()
  const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger, ...TIMING })
  const mounted = await adapter.mount(receiver)
  servers.push(mounted)
  return { url: mounted.url, lines: logger.lines, receiver }
}

// The process survives: nothing escapes as an uncaught exception or unhandled rejection.
const watch = watchProcess()
beforeAll(() => watch.start())
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  watch.stop()
  expect(watch.escaped).toEqual([])
})

// Adapters run side by side (their tests are independent), which keeps the suite to seconds.
describe.concurrent.each(adapters)('faults: $name', (adapter) => {
  const mount = (setup: (receiver: Receiver) => void, options: Partial<ReceiverOptions> = {}) =>
    mountOn(adapter, setup, options)

  const record = (task: TestContext['task'], row: string, value: string) =>
    observe({ table: 'faults', row, column: adapter.name, value }, task)

  describe('handlers', () => {
    it.for([
      ['throws an Error', () => Promise.reject(new Error('database down'))],
      ['rejects', async () => Promise.reject(new Error('database down'))],
      ['throws a non-Error value', () => Promise.reject('a string, thrown')],
    ] as const)('a handler that %s once: 500, then the retry is handled', async ([name, fail], { task }) => {
      let calls = 0
      let succeeded = 0
      const { url, errors } = await mount((receiver) =>
        receiver.on('app.installed', async () => {
          if (++calls === 1) await fail()
          succeeded++
        }),
      )
      const statuses = await service(url, lifecycle('app.installed'))
      expect(statuses).toEqual([500, 200])
      expect(succeeded).toBe(1)
      expect(errors.map((e) => e.code)).toEqual(['handler_error'])
      record(task, `Handler ${name} on the first attempt`, `${arrows(statuses)}; handled once`)
    })

    it('a handler that rejects later while one registered after it throws at once: 500, both reported, then handled once', async ({
      task,
    }) => {
      let attempts = 0
      let succeeded = 0
      // The first handler settles only once the second has thrown: later, by events, not by a timer.
      let thrown = gate()
      const { url, errors } = await mount((receiver) =>
        receiver
          .on('app.installed', async () => {
            await thrown.promise
            if (attempts === 1) throw new Error('rejects later')
            succeeded++
          })
          .on('app.installed', () => {
            const first = ++attempts === 1
            thrown.open()
            thrown = gate()
            if (first) throw new Error('throws at once')
          }),
      )
      const statuses = await service(url, lifecycle('app.installed'))
      expect(statuses).toEqual([500, 200])
      expect(succeeded).toBe(1)
      expect(errors.map((e) => (e.cause as Error).message)).toEqual(['rejects later', 'throws at once'])
      record(
        task,
        'Two handlers: one rejects later, the next throws at once (first attempt)',
        `${arrows(statuses)}; both failures to onError, no rejection unobserved; handled once`,
      )
    })

    it('a handler that always throws: 500 on every attempt, each reported to onError', async ({ task }) => {
      let calls = 0
      const { url, errors } = await mount((receiver) =>
        receiver.on('app.installed', () => {
          calls++
          throw new Error('always broken')
        }),
      )
      const statuses = await service(url, lifecycle('app.installed'))
      expect(statuses).toEqual([500, 500, 500, 500])
      expect(calls).toBe(4)
      expect(errors).toHaveLength(4)
      record(task, 'Handler that always throws', `${arrows(statuses)}; never handled, 4 errors to onError`)
    })

    it('a handler past the deadline that then succeeds: 200 at the deadline, handled once', async ({ task }) => {
      let calls = 0
      let finished = 0
      // Held until the answer is in: it can only have come at the deadline. The claim is held 2 s, not
      // 300 ms, so that the handler let go then still finishes within it on a busy machine (the next
      // test covers a handler that outlives its claim).
      const held = gate()
      const { url } = await mount(
        (receiver) =>
          receiver.on('gesture', async () => {
            calls++
            await held.promise
            finished++
          }),
        { dedup: { inFlightTtlMs: 2_000 } },
      )
      const payload = gesture()
      const statuses = await service(url, payload)
      held.open()
      await until(() => finished === 1)
      // A copy that arrives after all (the service is at-least-once): the stored answer, no second run.
      const copy = await post(url, await signed(payload, { timestamp: NOW_S + 9 }))
      expect(statuses).toEqual([200])
      expect(copy.status).toBe(200)
      expect(copy.headers.get('x-ringhook-duplicate')).toBe('true')
      expect([calls, finished]).toEqual([1, 1])
      record(task, 'Handler past the deadline, then succeeds', `${arrows(statuses)} (at the deadline); handled once`)
    })

    it('a handler that outlives its in-flight claim: a copy arriving after the lapse runs it again', async ({
      task,
    }) => {
      let calls = 0
      let finished = 0
      // Both runs are held until the copy has been answered: the first is still going when its claim
      // lapses, as a handler past deadlineMs + 5 s would be, however slow or fast the machine.
      const held = gate()
      const { url } = await mount((receiver) =>
        receiver.on('gesture', async () => {
          calls++
          await held.promise
          finished++
        }),
      )
      const payload = gesture()
      const statuses = await service(url, payload)
      // The one timer is the claim's own: answered at the 200 ms deadline, the claim (taken before the
      // deadline started) has lapsed 100 ms later; the copy is sent after that, with a margin.
      await sleep(TIMING.dedup.inFlightTtlMs - TIMING.deadlineMs + 50)
      const copy = await post(url, await signed(payload, { timestamp: NOW_S + 9 }))
      held.open()
      await until(() => finished === 2)
      expect(statuses).toEqual([200])
      expect(copy.status).toBe(200)
      expect(calls).toBe(2)
      record(
        task,
        'Handler outlives its in-flight claim (`deadlineMs` + 5 s), and a copy arrives after that',
        `${arrows(statuses)}; the copy: ${copy.status} and a second run (at-least-once past the claim)`,
      )
    })

    it("with onDeadline 'retry': 503, 409 while running, then the stored result", async ({ task }) => {
      let calls = 0
      // Held until the first retry has been answered 409; the next retry finds the stored result.
      const held = gate()
      const { url } = await mount(
        (receiver) =>
          receiver.on('gesture', async () => {
            calls++
            await held.promise
          }),
        // The claim outlives the held handler even on a loaded machine.
        { onDeadline: 'retry', dedup: { inFlightTtlMs: 2_000 } },
      )
      const statuses = await service(url, gesture(), (answers) => {
        if (answers.length === 2) held.open()
      })
      expect(statuses).toEqual([503, 409, 200])
      expect(calls).toBe(1)
      record(
        task,
        "Handler past the deadline, then succeeds (`onDeadline: 'retry'`)",
        `${arrows(statuses)}; handled once`,
      )
    })

    it('a handler that never settles: 200 at the deadline, run once', async ({ task }) => {
      const signals: AbortSignal[] = []
      const { url } = await mount((receiver) =>
        receiver.on('gesture', (_event, { signal }) => {
          signals.push(signal)
          return new Promise<void>(() => {})
        }),
      )
      const statuses = await service(url, gesture())
      expect(statuses).toEqual([200])
      expect(signals).toHaveLength(1)
      expect(signals[0]?.aborted).toBe(true) // the handler is told the answer went out without it
      record(
        task,
        'Handler that never settles',
        `${arrows(statuses)} (at the deadline); run once, \`ctx.signal\` aborted`,
      )
    })

    it("a handler that never settles, with onDeadline 'retry': never acknowledged, run again when its claim lapses", async ({
      task,
    }) => {
      let calls = 0
      const { url } = await mount(
        (receiver) =>
          receiver.on('gesture', () => {
            calls++
            return new Promise<void>(() => {})
          }),
        { onDeadline: 'retry' },
      )
      const statuses = await service(url, gesture())
      expect(statuses.every((s) => s === 503 || s === 409)).toBe(true)
      expect(calls).toBeGreaterThanOrEqual(2)
      record(
        task,
        "Handler that never settles (`onDeadline: 'retry'`)",
        `${arrows(statuses)}; run ${calls}× (again each time the in-flight claim lapses); never acknowledged`,
      )
    })
  })

  describe('dedup store', () => {
    it('failing to claim: 503 store_unavailable, then the retry is handled once', async ({ task }) => {
      const failing = new Set<'claim'>(['claim'])
      let calls = 0
      const { url } = await mount(
        (receiver) =>
          receiver.on('app.activated', () => {
            calls++
            failing.clear() // the store comes back while the service waits
          }),
        { store: flakyStore(failing) },
      )
      const payload = lifecycle('app.activated')
      const first = await post(url, await signed(payload))
      failing.clear()
      const rest = await service(url, payload)
      const statuses = [first.status, ...rest]
      expect(first.status).toBe(503)
      expect(first.headers.get('retry-after')).toBe('1')
      expect(first.body).toMatchObject({ error: { code: 'store_unavailable' } })
      expect(rest).toEqual([200])
      expect(calls).toBe(1)
      record(
        task,
        'Dedup store down (claim fails), then back',
        `${arrows(statuses)}; handled once, no handler ran unclaimed`,
      )
    })

    it("full with whenFull: 'refuse': 503 store_full, none forgotten, the retry handled once there is room", async ({
      task,
    }) => {
      let calls = 0
      // The store's own clock, moved by the test: filling it cannot race its entries' expiry.
      let storeNow = 0
      const store = createMemoryStore({
        maxBytes: 16 * 1024,
        now: () => storeNow,
        whenFull: 'refuse',
        logger: recordingLogger(),
      })
      const { url, lines } = await mount(
        (receiver) =>
          receiver.on('app.activated', () => {
            calls++
          }),
        { store },
      )
      // One delivery over HTTP, then the store filled directly (hundreds of fingerprints: over HTTP
      // on every adapter at once, that took longer than a test may). Bounded: a store that never
      // refuses must fail on the 503 below, not run the test out of memory.
      const last = lifecycle('app.activated')
      const stored = await post(url, await signed(last))
      for (let i = 0; i < 10_000; i++) {
        const claim = store.claim(`filler-${i}`, 60_000)
        if (claim.state !== 'claimed') break
        store.complete(`filler-${i}`, claim.token, { status: 200, body: '{"ok":true}' }, 15 * 60_000)
      }
      const refused = await post(url, await signed(lifecycle('app.activated')))
      expect(stored.status).toBe(200)
      const handledBefore = calls
      const copy = await post(url, await signed(last, { timestamp: NOW_S + 9 }))
      const latecomer = lifecycle('app.activated')
      const first = await post(url, await signed(latecomer))
      storeNow += 16 * 60_000 // the stored deliveries' 15-minute window passes
      const rest = await service(url, latecomer)
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(refused.body).toMatchObject({ error: { code: 'store_full' } })
      expect(lines.some((l) => l.level === 'warn' && /maxBytes/.test(l.message ?? ''))).toBe(true)
      expect(copy.status).toBe(200)
      expect(copy.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(first.status).toBe(503)
      expect(rest).toEqual([200])
      expect(calls).toBe(handledBefore + 1)
      record(
        task,
        "Memory store full of deliveries still inside their window, whenFull: 'refuse' (16 KiB budget)",
        `503 \`store_full\` + Retry-After, warning naming \`maxBytes\`; a copy of a stored delivery: 200 from the store; a new delivery: ${arrows([first.status, ...rest])} once the window has passed; nothing handled twice`,
      )
    })

    it('failing to record completion: 200 (the work is done), error reported', async ({ task }) => {
      let calls = 0
      const { url, errors } = await mount(
        (receiver) =>
          receiver.on('app.activated', () => {
            calls++
          }),
        { store: flakyStore(new Set(['complete'])) },
      )
      const statuses = await service(url, lifecycle('app.activated'))
      expect(statuses).toEqual([200])
      expect(calls).toBe(1)
      expect(errors.map((e) => [e.code, e.phase])).toEqual([['store_unavailable', 'store']])
      record(
        task,
        'Dedup store fails to record completion',
        `${arrows(statuses)}; handled once; store error to onError`,
      )
    })

    it('failing to release after a handler error: retries wait out the claim, then one is handled', async ({
      task,
    }) => {
      let calls = 0
      let succeeded = 0
      const failing = new Set<'release'>(['release'])
      const { url } = await mount(
        (receiver) =>
          receiver.on('app.activated', () => {
            if (++calls === 1) throw new Error('first attempt fails')
            succeeded++
          }),
        { store: flakyStore(failing) },
      )
      const statuses = await service(url, lifecycle('app.activated'))
      expect(statuses[0]).toBe(500)
      expect(statuses.at(-1)).toBe(200)
      expect(statuses.slice(1, -1).every((s) => s === 409)).toBe(true)
      expect(succeeded).toBe(1)
      record(
        task,
        'Handler fails and the store cannot release the claim',
        `${arrows(statuses)}; handled once, after the claim lapsed`,
      )
    })
  })

  describe('logs', () => {
    // 40 requests one after another: the rule (10 lines, then a count) is what is tested, not the
    // size of the flood; the receiver's clock is fixed, so all 40 fall in one interval of the limit.
    it('a flood of forged requests: at most 10 warnings, the rest counted in one line', { timeout: 60_000 }, async ({
      task,
    }) => {
      const { url, lines, receiver } = await mountWithReceiver(adapter)
      const forged = await signed(gesture(), { secret: 'whsec_forged' })
      const statuses = new Set<number>()
      for (let i = 0; i < 40; i++) statuses.add((await post(url, forged)).status)
      await receiver.close({ timeoutMs: 0 })
      const warnings = lines.filter((l) => l.level === 'warn' && l.fields.code === 'unauthorized')
      const summary = lines.find((l) => l.fields.suppressed !== undefined)
      expect([...statuses]).toEqual([401])
      expect(warnings).toHaveLength(10)
      expect(summary?.fields).toMatchObject({ suppressed: { unauthorized: 30 }, total: 30 })
      const bytes = lines.reduce((sum, line) => sum + JSON.stringify(line).length, 0)
      record(
        task,
        '40 forged requests (wrong secret)',
        `401 ×40; ${lines.length} log lines (${bytes} bytes): 10 warnings, then one line counting the 30 held back`,
      )
    })
  })

  // Behind a gateway (AWS Lambda) the body arrives whole or not at all: these faults are the gateway's.
  const describeTransport = adapter.transport === 'gateway' ? (_name: string, _tests: () => void) => {} : describe
  describeTransport('transport', () => {
    it('a client that disconnects mid-body: nothing handled, a warning (not an error) logged, the retry handled', async ({
      task,
    }) => {
      let calls = 0
      // A body timeout far off: the hang-up, not the clock, is what ends this body, however slowly
      // the machine runs (with the file's 200 ms a starved client could hang up after the 408).
      const { url, lines } = await mount(
        (receiver) =>
          receiver.on('gesture', () => {
            calls++
          }),
        { bodyTimeoutMs: 60_000 },
      )
      const payload = gesture()
      const { body, headers } = await signed(payload)
      const connection = await rawConnection(portOf(url))
      await connection.write(
        requestHead([
          `X-Service-Signature: ${headers['x-service-signature']}`,
          `X-Service-Timestamp: ${headers['x-service-timestamp']}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ]) + body.slice(0, 20),
      )
      connection.socket.destroy()
      // The server reads the head, then sees the hang-up (before or after ringhook listens for the
      // body): the delivery ends as body_incomplete.
      await until(() => lines.some((l) => l.fields.code === 'body_incomplete'))
      const statuses = await service(url, payload)
      expect(statuses).toEqual([200])
      expect(calls).toBe(1)
      expect(lines.filter((l) => l.level === 'error')).toEqual([])
      record(
        task,
        'Client disconnects mid-body',
        `(no answer: client gone; \`body_incomplete\` logged) → ${arrows(statuses)}`,
      )
    })

    it('a body that trickles in: 408 once bodyTimeoutMs has passed, connection closed, the retry handled', async ({
      task,
    }) => {
      let calls = 0
      const { url } = await mount((receiver) =>
        receiver.on('gesture', () => {
          calls++
        }),
      )
      const payload = gesture()
      const { body, headers } = await signed(payload)
      const connection = await rawConnection(portOf(url))
      await connection.write(
        requestHead([
          `X-Service-Signature: ${headers['x-service-signature']}`,
          `X-Service-Timestamp: ${headers['x-service-timestamp']}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ]),
      )
      // One byte every 50 ms: each gap well under the 200 ms timeout, the whole body far over it.
      for (let i = 0; i < body.length && !connection.closed() && !connection.received(); i++) {
        await connection.write(body.slice(i, i + 1))
        await sleep(50)
      }
      const status = await connection.status()
      const closed = await connection.waitClosed(2000)
      connection.socket.destroy()
      const statuses = await service(url, payload)
      expect(status).toBe(408)
      expect(closed).toBe(true)
      expect(statuses).toEqual([200])
      expect(calls).toBe(1)
      record(
        task,
        'Body trickles in (1 byte / 50 ms; body timeout 200 ms)',
        `${status}, connection closed → ${arrows(statuses)}; handled once`,
      )
    })

    it('an endless body: 413, reading stops, connection closed, memory flat', async ({ task }) => {
      let calls = 0
      const { url } = await mount(
        (receiver) =>
          receiver.on('gesture', () => {
            calls++
          }),
        { maxBodyBytes: 64 * 1024 },
      )
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const before = process.memoryUsage()
      const pushed: number[] = []
      let statuses: Array<number | undefined> = []
      for (let upload = 0; upload < 4; upload++) {
        const connection = await rawConnection(portOf(url))
        await connection.write(
          requestHead([
            `X-Service-Signature: sha256=${'0'.repeat(64)}`,
            `X-Service-Timestamp: ${NOW_S}`,
            'Content-Type: application/json',
            'Transfer-Encoding: chunked',
          ]),
        )
        // Endless, unless the server stops it: give up at 256 MiB.
        const until = Date.now() + 5000
        while (!connection.closed() && connection.socket.bytesWritten < 256 << 20 && Date.now() < until) {
          await connection.write(`${chunk.length.toString(16)}\r\n`)
          await connection.write(chunk)
          await connection.write('\r\n')
        }
        statuses.push(await connection.status())
        expect(await connection.waitClosed(2000)).toBe(true)
        pushed.push(connection.socket.bytesWritten)
        connection.socket.destroy()
      }
      const after = process.memoryUsage()
      const grownMb = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20
      const maxPushedMb = Math.max(...pushed) / 2 ** 20
      statuses = [...new Set(statuses)]
      expect(statuses).toEqual([413])
      // Only what fits in the kernel's socket buffers gets through before the server hangs up.
      expect(maxPushedMb).toBeLessThan(32)
      expect(grownMb).toBeLessThan(64)
      const retry = await service(url, gesture())
      expect(retry).toEqual([200])
      expect(calls).toBe(1)
      record(
        task,
        'Endless chunked body (4 uploads, each stopped by the server)',
        `413, connection closed after ≤ ${maxPushedMb.toFixed(1)} MiB sent (socket buffers; the receiver stops reading at the 64 KiB limit); next delivery 200`,
      )
    })

    it('a declared Content-Length over the limit: 413 before reading, connection closed', async ({ task }) => {
      const { url } = await mount(() => {})
      const connection = await rawConnection(portOf(url))
      await connection.write(
        requestHead([
          `X-Service-Signature: sha256=${'0'.repeat(64)}`,
          `X-Service-Timestamp: ${NOW_S}`,
          'Content-Type: application/json',
          `Content-Length: ${10 * 2 ** 30}`,
        ]),
      )
      await connection.write(Buffer.alloc(1024, 0x20))
      const status = await connection.status()
      const closed = await connection.waitClosed(2000)
      connection.socket.destroy()
      expect(status).toBe(413)
      expect(closed).toBe(true)
      record(task, '`Content-Length: 10 GiB` declared', `${status} before reading, connection closed`)
    })
  })
})
