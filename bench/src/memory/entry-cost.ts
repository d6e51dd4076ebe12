/**
 * Child process (run with --expose-gc): the heap one remembered delivery costs, measured through
 * a real receiver with its default memory store. For each kind of delivery: warm the receiver up,
 * take the heap after a full GC, push `count` distinct deliveries through `receiver.handle()` (the
 * store keeps every one: `count` stays under its 10,000 bound), take the heap again. Only the
 * store's entries survive a delivery, so the difference divided by `count` is one entry: its key,
 * claim token, expiry and the reply kept for duplicates. Sends one EntryCostReport over IPC.
 */
import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { eventBody, gestureBody, ringHeaders, SECRET } from '../fixtures.js'

export interface EntryCost {
  kind: string
  count: number
  storeSize: number
  bytesPerEntry: number
}

export interface EntryCostReport {
  rows: EntryCost[]
}

const gc = (globalThis as { gc?: () => void }).gc
const heapUsed = (): number => {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

function freshReceiver(): Receiver {
  return createReceiver({ secret: SECRET, logger: silentLogger })
    .on('gesture', (event) => vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
    .on('notification.responded', () => {})
}

async function deliver(receiver: Receiver, body: Buffer): Promise<void> {
  const response = await receiver.handle({ method: 'POST', headers: ringHeaders(body), rawBody: body })
  if (response.status !== 200) throw new Error(`a signed delivery was answered ${response.status}`)
}

async function measure(kind: string, body: () => Buffer, count: number): Promise<EntryCost> {
  const receiver = freshReceiver()
  // Warm-up: zod's parsers, the HMAC key and the pipeline's shapes exist before the first mark.
  for (let i = 0; i < 50; i++) await deliver(receiver, body())
  const before = heapUsed()
  for (let i = 0; i < count; i++) await deliver(receiver, body())
  const after = heapUsed()
  const store = receiver.options.store as { size?: number }
  return { kind, count, storeSize: store.size ?? Number.NaN, bytesPerEntry: (after - before) / count }
}

const count = Number(process.argv[2] ?? 5_000)
const rows = [
  await measure('`notification.responded` (key: app + `data.event_id`; reply `{"ok":true}`)', eventBody, count),
  await measure('`gesture` (key: app, user, event, timestamp, gesture type; reply: a vibe)', gestureBody, count),
]
process.send?.({ rows } satisfies EntryCostReport, () => process.exit(0))
