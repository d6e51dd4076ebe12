// The memory store attacked with volume through a real receiver on a real HTTP server: a burst of
// distinct signed deliveries far beyond its budget must never make it refuse honest traffic (the
// service retries only at 1, 5 and 30 s), nor forget that an early delivery was handled.
import { createServer } from 'node:http'
import { createReceiver, vibe } from '@ringhook/core'
import { createMemoryStore } from '@ringhook/core/store'
import { ringhook } from '@ringhook/node'
import { afterAll, expect, it } from 'vitest'
import { listen, type Mounted } from '../conformance/adapters.js'
import { gesture, NOW_MS, NOW_S, post, SECRET, signed } from '../support/events.js'
import { observe } from './observations.js'
import { recordingLogger } from './support.js'

const servers: Mounted[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

it('a burst beyond the memory budget: nothing refused, early copies still recognised, honest traffic answered at once', {
  timeout: 120_000,
}, async ({ task }) => {
  const calls = new Map<string, number>()
  const storeLog = recordingLogger()
  const receiver = createReceiver({
    secret: SECRET,
    now: () => NOW_MS,
    logger: recordingLogger(),
    // 8 KiB for about 20 deliveries with their replies, 8 KiB for 455 fingerprints.
    store: createMemoryStore({ maxBytes: 16 * 1024, logger: storeLog }),
  })
  receiver.on('gesture', (event) => {
    calls.set(event.timestamp, (calls.get(event.timestamp) ?? 0) + 1)
    return vibe('tap').message(`n${calls.size}`)
  })
  const mounted = await listen(createServer(ringhook(receiver)))
  servers.push(mounted)
  const { url } = mounted
  const statusesOf = async (payloads: Record<string, unknown>[]) => {
    const statuses = new Set<number>()
    for (const payload of payloads) statuses.add((await post(url, await signed(payload))).status)
    return [...statuses]
  }
  const again = async (payload: Record<string, unknown>) => post(url, await signed(payload, { timestamp: NOW_S + 7 }))

  // 15 times what the deliveries' half of the budget holds with their replies, within the fingerprints'.
  const burst = Array.from({ length: 300 }, () => gesture())
  const burstStatuses = await statusesOf(burst)
  // The service's first attempt of the next delivery: answered at once, its vibe with it.
  const honest = await post(url, await signed(gesture()))
  const early = await Promise.all(burst.slice(0, 3).map(again))
  const recent = await again(burst[burst.length - 1] as Record<string, unknown>)
  // Beyond the fingerprints too: the default shortens the window, says so, and refuses nothing.
  const beyond = await statusesOf(Array.from({ length: 500 }, () => gesture()))

  expect(burstStatuses).toEqual([200])
  expect(honest.status).toBe(200)
  expect(honest.body).toMatchObject({ vibe: { message: 'n301' } })
  for (const copy of early) {
    expect([copy.status, copy.headers.get('x-ringhook-duplicate'), copy.body]).toEqual([200, 'true', { ok: true }])
  }
  expect(recent.headers.get('x-ringhook-duplicate')).toBe('true')
  expect(recent.body).toMatchObject({ vibe: { message: 'n300' } })
  expect(beyond).toEqual([200])
  expect(calls.size).toBe(801)
  expect([...calls.values()].every((n) => n === 1)).toBe(true)
  const warned = storeLog.lines.filter((line) => line.level === 'warn').map((line) => line.fields.code)
  expect(warned).toEqual(['replies_forgotten', 'window_shortened'])
  observe(
    {
      table: 'faults',
      row: 'A burst of 800 distinct signed deliveries into a 16 KiB memory store (room for ~20 with replies, 455 fingerprints), node',
      column: 'node',
      value:
        'all 200; the next delivery 200 with its vibe at its first attempt; copies of the first three: 200 + duplicate header, acknowledgement only; of the 300th: its vibe; nothing handled twice; one warning each for replies forgotten early and for the window shortened',
    },
    task,
  )
})
