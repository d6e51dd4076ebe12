import type { CapturedDelivery, CaptureSink } from '@ringhook/core/capture'

/** The command the capture sink needs, in ioredis' shape: an ioredis `Redis` or `Cluster` is one as it is. */
export interface RedisStreamClient {
  /** `XADD key [MAXLEN ~ n] * field value ...`: appends an entry to a stream. */
  xadd(key: string, ...args: string[]): Promise<unknown>
}

/** Which stream {@link redisCaptureSink} appends to, and how long it lets it grow. */
export interface RedisCaptureSinkOptions {
  /** An ioredis client (or anything with its `xadd`). */
  client: RedisStreamClient
  /** The stream's key. Default `'ringhook:captures'`. */
  key?: string
  /** About how many entries the stream keeps (`MAXLEN ~`): older ones are trimmed. Default 100,000. */
  maxLength?: number
  /**
   * About how many entries the stream of unauthenticated deliveries keeps (those refused before their
   * signature checked out, which anyone can send): {@link unauthenticatedStream}, trimmed apart, so
   * that they never trim an authentic delivery's record away. Default 10,000.
   */
  unauthenticated?: {
    /** About how many entries the unauthenticated deliveries' stream keeps. Default 10,000. */
    maxLength?: number
  }
}

/** The stream captured deliveries go to unless told otherwise. */
export const DEFAULT_CAPTURE_STREAM = 'ringhook:captures'
/** About how many captured deliveries the stream keeps unless told otherwise. */
export const DEFAULT_CAPTURE_STREAM_LENGTH = 100_000
const DEFAULT_UNAUTHENTICATED_LENGTH = 10_000

/** The stream {@link redisCaptureSink} appends unauthenticated deliveries' records to: `<key>:unauthenticated`. */
export const unauthenticatedStream = (key: string): string => `${key}:unauthenticated`

/**
 * A capture sink appending each record to a Redis stream, as the JSON text of its `record` field,
 * with `event` and `outcome` beside it. Trimmed with `MAXLEN ~`, which Redis does cheaply. Records of
 * unauthenticated deliveries (`authentic: false`) go to {@link unauthenticatedStream}, trimmed apart.
 * Read both back with {@link readRedisCaptures}, then `replay()` from `@ringhook/capture`.
 *
 * @example
 * import { Redis } from 'ioredis'
 * import { createCapture } from '@ringhook/core/capture'
 * createCapture({ sink: redisCaptureSink({ client: new Redis(process.env.REDIS_URL!) }) })
 */
export function redisCaptureSink(options: RedisCaptureSinkOptions): CaptureSink {
  const { client } = options
  if (typeof client?.xadd !== 'function')
    throw new TypeError('redisCaptureSink needs a `client` with `xadd`, such as an ioredis Redis')
  const key = options.key ?? DEFAULT_CAPTURE_STREAM
  const maxLength = String(options.maxLength ?? DEFAULT_CAPTURE_STREAM_LENGTH)
  const strangers = unauthenticatedStream(key)
  const strangersLength = String(options.unauthenticated?.maxLength ?? DEFAULT_UNAUTHENTICATED_LENGTH)
  // Orders entries of the two streams written in the same millisecond (their ids' sequences are apart).
  let written = 0
  return {
    async write(records: readonly CapturedDelivery[]) {
      // Sent together: ioredis writes them on one connection, in order, without waiting for each.
      await Promise.all(
        records.map((record) =>
          client.xadd(
            record.authentic === false ? strangers : key,
            'MAXLEN',
            '~',
            record.authentic === false ? strangersLength : maxLength,
            '*',
            'record',
            JSON.stringify(record),
            'event',
            record.event ?? '',
            'outcome',
            record.outcome,
            'n',
            String(written++),
          ),
        ),
      )
    },
  }
}
