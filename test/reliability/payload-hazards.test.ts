// Signed payloads that are valid JSON but hostile: prototype-pollution keys, and the deepest or
// largest JSON that fits the size limit. Delivered over HTTP to the node:http adapter.

import { createServer } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { afterEach, describe, expect, it } from 'vitest'
import { listen, type Mounted } from '../conformance/adapters.js'
import { NOW_MS, post, SECRET, signed } from '../support/events.js'
import { observe } from './observations.js'

const LIMIT = 64 * 1024

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.close()
  mounted = undefined
})

async function mount(receiver: Receiver) {
  mounted = await listen(createServer(ringhook(receiver)))
  return mounted.url
}

const receiverWithDefaults = () => createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger })

/** The envelope of a valid gesture, as JSON text, with `extra` spliced in verbatim. */
const gestureText = (extra: string, id = 'g') =>
  `{"event":"gesture","gesture_type":"tap","user_app_id":"u-${id}","app_id":"app_demo",` +
  `"timestamp":"2026-11-22T10:00:00.000Z","data":{"__proto__":{"polluted":"data"}},${extra}}`

/** The classic vulnerable deep merge many apps still carry: it follows `__proto__` as a key. */
function naiveMerge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const key in source) {
    const value = source[key]
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {}
      naiveMerge(target[key] as Record<string, unknown>, value as Record<string, unknown>)
    } else {
      target[key] = value
    }
  }
  return target
}

const polluted = () =>
  ['polluted', 'isAdmin', 'x'].filter((key) => key in Object.prototype || key in ({} as Record<string, unknown>))

describe('prototype pollution', () => {
  it('__proto__ and constructor keys at any depth reach no prototype, even through a naive merge', async ({ task }) => {
    const receiver = receiverWithDefaults()
    const seen: Record<string, unknown>[] = []
    receiver.onAny((event) => {
      const record = event as Record<string, unknown>
      seen.push(record)
      // What an app might do with the payload: spread it, assign it, deep-merge it.
      naiveMerge({}, record)
      Object.assign({}, record.nested as object)
    })
    const url = await mount(receiver)
    const bodies = [
      gestureText('"__proto__":{"isAdmin":true}', 'top'),
      gestureText('"nested":{"deeper":{"__proto__":{"polluted":"nested"}}}', 'nested'),
      gestureText('"constructor":{"prototype":{"x":"constructor"}}', 'ctor'),
      gestureText('"list":[{"__proto__":{"polluted":"array"}}]', 'list'),
      '{"event":"slot.future","__proto__":{"isAdmin":true},"nested":{"__proto__":{"polluted":"unknown"}}}',
      // The same keys spelled with JSON escapes, which JSON.parse decodes to `__proto__`.
      gestureText('"\\u005f_proto__":{"isAdmin":true}', 'escaped'),
      gestureText(
        '"nested":{"\\u005F\\u005F\\u0070\\u0072\\u006F\\u0074\\u006F\\u005F\\u005F":{"polluted":"all"}}',
        'all',
      ),
    ]
    try {
      for (const body of bodies) expect((await post(url, await signed(body))).status).toBe(200)
      expect(polluted()).toEqual([])
      expect(seen).toHaveLength(bodies.length)
      for (const event of seen) {
        expect(Object.getPrototypeOf(event)).toBe(Object.prototype)
        expect('isAdmin' in event).toBe(false)
        expect(JSON.stringify(event)).not.toContain('__proto__')
      }
    } finally {
      for (const key of ['polluted', 'isAdmin', 'x']) delete (Object.prototype as Record<string, unknown>)[key]
    }
    observe(
      {
        table: 'inputs',
        row: '`__proto__` (top level, in `data`, nested, in arrays, unknown events; also spelled with JSON escapes, `\\u005f_proto__`) and `constructor.prototype` keys, then a naive deep merge in the handler',
        column: 'result',
        value: '200; no prototype changed; no `__proto__` key reaches a handler',
      },
      task,
    )
  })
})

/** Signed bodies near the 64 KiB default limit that are as awkward for a parser as JSON gets. */
function awkwardBodies(): Array<[string, string]> {
  const arrays = 30_000
  const objects = 9_000
  const keys = Array.from({ length: 3_000 }, (_, i) => `"k${i}":${i}`).join(',')
  return [
    [`arrays nested ${arrays} deep`, gestureText(`"deep":${'['.repeat(arrays)}${']'.repeat(arrays)}`, 'arrays')],
    [
      `objects nested ${objects} deep, __proto__ at the bottom`,
      gestureText(`"deep":${'{"a":'.repeat(objects)}{"__proto__":{"x":1}}${'}'.repeat(objects)}`, 'objects'),
    ],
    ['3 000 keys in one object', gestureText(`"wide":{${keys}}`, 'wide')],
    ['a 60 KB string of escapes', gestureText(`"text":"${'\\u00e9\\n'.repeat(60_000 / 12)}"`, 'escapes')],
  ]
}

describe('deep and large JSON within the size limit', () => {
  it('is handled without stalling the event loop or overflowing the stack', async ({ task }) => {
    const receiver = receiverWithDefaults()
    let handled = 0
    receiver.onAny(() => {
      handled++
    })
    const url = await mount(receiver)
    const bodies = awkwardBodies()
    for (const [, body] of bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT)

    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const started = performance.now()
    const statuses = await Promise.all(
      bodies.flatMap(([, body]) =>
        // Five copies each, concurrently; distinct user ids keep them distinct deliveries.
        Array.from(
          { length: 5 },
          async (_, i) =>
            (await post(url, await signed(body.replace('"user_app_id":"u-', `"user_app_id":"u${i}-`)))).status,
        ),
      ),
    )
    const elapsed = performance.now() - started
    delay.disable()
    const maxDelayMs = delay.max / 1e6

    expect(statuses.every((status) => status === 200)).toBe(true)
    expect(handled).toBe(bodies.length * 5)
    // A generous bound: the point is "no multi-second stall", not a speed claim.
    expect(maxDelayMs).toBeLessThan(1000)
    observe(
      {
        table: 'inputs',
        row: `Signed JSON up to the 64 KiB limit: ${bodies.map(([name]) => name).join('; ')} (5 concurrent copies each)`,
        column: 'result',
        value: `200 ×${statuses.length}, all handled; longest event-loop delay ${maxDelayMs.toFixed(0)} ms over ${elapsed.toFixed(0)} ms`,
      },
      task,
    )
  })
})
