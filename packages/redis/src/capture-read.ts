import type { CapturedDelivery, CaptureFilter } from '@ringhook/core/capture'
import { DEFAULT_CAPTURE_STREAM, unauthenticatedStream } from './capture-sink.js'

/** The command {@link readRedisCaptures} needs, in ioredis' shape: an ioredis `Redis` or `Cluster` is one as it is. */
export interface RedisStreamReader {
  /** `XRANGE key start end COUNT n`: up to `n` entries from `start` to `end`, each its id and its fields. */
  xrange(key: string, start: string, end: string, countToken: 'COUNT', count: number): Promise<[string, string[]][]>
}

/** Which stream {@link readRedisCaptures} reads, and which of its records it keeps. */
export interface ReadRedisCapturesOptions {
  /** An ioredis client (or anything with its `xrange`). */
  client: RedisStreamReader
  /** The stream's key, as given to `redisCaptureSink`. Default `'ringhook:captures'`. */
  stream?: string
  /** Which records to keep: event, outcome, time and id, as `readCaptures` of `@ringhook/capture` takes. */
  filter?: CaptureFilter
  /** At most this many records, the oldest that match. Default all of them. */
  count?: number
}

/** A stream entry that is not a captured delivery: which stream, which entry, and what is wrong with it. */
export class RedisCaptureError extends Error {
  /** Always `'RedisCaptureError'`. */
  override readonly name = 'RedisCaptureError'
  constructor(
    message: string,
    /** The stream's key. */
    readonly stream: string,
    /** The entry's id in the stream (`1736928000000-0`). */
    readonly entry: string,
  ) {
    super(message)
  }
}

/** `capturedDeliverySchema`, imported when reading. */
type RecordSchema = typeof import('@ringhook/core/capture').capturedDeliverySchema

/** Entries one `XRANGE` asks for: a large stream is read in replies of this size. */
const PAGE = 1000

/**
 * Reads the captured deliveries a stream written by {@link redisCaptureSink} holds, with its stream
 * of unauthenticated deliveries, by arrival, keeping those that match the filter: the records for
 * `replay()` from `@ringhook/capture`. The
 * stream is read with `XRANGE`, a page of entries at a time, and every entry is checked against the
 * record's schema, filtered out or not: an entry that is not a captured delivery throws
 * {@link RedisCaptureError} naming it.
 *
 * @example
 * import { Redis } from 'ioredis'
 * const failed = await readRedisCaptures({ client: new Redis(), filter: { outcome: 'failed', since: '2027-01-15T08:00:00Z' } })
 */
export async function readRedisCaptures(options: ReadRedisCapturesOptions): Promise<CapturedDelivery[]> {
  const { client, filter = {}, count } = options
  if (typeof client?.xrange !== 'function')
    throw new TypeError('readRedisCaptures needs a `client` with `xrange`, such as an ioredis Redis')
  if (count !== undefined && !(Number.isInteger(count) && count > 0))
    throw new TypeError(`readRedisCaptures: \`count\` must be a positive integer, got ${String(count)}`)
  const stream = options.stream ?? DEFAULT_CAPTURE_STREAM
  const limit = count ?? Number.POSITIVE_INFINITY
  // The oldest `limit` of both are among the oldest `limit` of each.
  const authentic = await readStream(client, stream, filter, limit)
  const strangers = await readStream(client, unauthenticatedStream(stream), filter, limit)
  return inWriteOrder(authentic, strangers)
    .slice(0, limit)
    .map((entry) => entry.record)
}

/** A record, the millisecond its entry was written, and the sink's count of records then. */
interface Entry {
  ms: bigint
  n: number
  record: CapturedDelivery
}

/** One stream's records that match, oldest first, up to `limit`. */
async function readStream(
  client: RedisStreamReader,
  stream: string,
  filter: CaptureFilter,
  limit: number,
): Promise<Entry[]> {
  // Loaded when reading, not with the package: a dedup store's cold start does not build the record's schema.
  const { capturedDeliverySchema, matchesCapture } = await import('@ringhook/core/capture')
  // Without a filter every entry is kept: ask for no more than are still wanted.
  const filtered = Object.values(filter).some((value) => value !== undefined)
  const records: Entry[] = []
  let start = '-'
  while (records.length < limit) {
    const size = filtered ? PAGE : Math.min(PAGE, limit - records.length)
    const entries = await client.xrange(stream, start, '+', 'COUNT', size)
    for (const [id, fields] of entries) {
      const record = recordOf(capturedDeliverySchema, stream, id, fields)
      if (matchesCapture(record, filter))
        records.push({ ms: BigInt(id.slice(0, id.indexOf('-'))), n: countOf(fields), record })
      if (records.length >= limit) break
    }
    const last = entries.at(-1)
    if (!last || entries.length < size) break
    start = after(last[0])
  }
  return records
}

/**
 * The entries of two streams in the order they were written: by the millisecond of their ids, which
 * Redis gives from its own clock, then by the count the sink wrote beside each.
 */
function inWriteOrder(first: Entry[], second: Entry[]): Entry[] {
  if (second.length === 0) return first
  const out: Entry[] = []
  let i = 0
  let j = 0
  while (i < first.length || j < second.length) {
    const a = first[i]
    const b = second[j]
    if (b !== undefined && (a === undefined || b.ms < a.ms || (b.ms === a.ms && b.n < a.n))) {
      out.push(b)
      j++
    } else {
      out.push(a as Entry)
      i++
    }
  }
  return out
}

/** The sink's count written beside a record (`n`); 0 for an entry written without one. */
function countOf(fields: readonly string[]): number {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'n') return Number(fields[i + 1]) || 0
  return 0
}

/** The record an entry holds in its `record` field, checked. */
function recordOf(schema: RecordSchema, stream: string, id: string, fields: readonly string[]): CapturedDelivery {
  let text: string | undefined
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'record') text = fields[i + 1]
  if (text === undefined) throw new RedisCaptureError(`${stream} entry ${id} has no \`record\` field`, stream, id)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new RedisCaptureError(`${stream} entry ${id}: its \`record\` is not JSON`, stream, id)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.map(String).join('.') || '(record)'}: ${issue.message}`)
      .join('; ')
    throw new RedisCaptureError(`${stream} entry ${id} is not a captured delivery: ${issues}`, stream, id)
  }
  return parsed.data
}

const MAX_SEQUENCE = 18_446_744_073_709_551_615n

/** The smallest stream id after `id` (`ms-seq`): where the next page starts (`(id` needs Redis 6.2). */
function after(id: string): string {
  const dash = id.indexOf('-')
  const ms = BigInt(id.slice(0, dash))
  const seq = BigInt(id.slice(dash + 1))
  return seq === MAX_SEQUENCE ? `${ms + 1n}-0` : `${ms}-${seq + 1n}`
}
