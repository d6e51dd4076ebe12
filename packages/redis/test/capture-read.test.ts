import { type CapturedDelivery, type CaptureFilter, matchesCapture } from '@ringhook/core/capture'
import { RedisCaptureError, readRedisCaptures, redisCaptureSink } from '@ringhook/redis'
import { describe, expect, it } from 'vitest'
import { sharedRedisWithKeys } from '../../../test/redis/support/redis.js'
import { captureTraffic } from '../../../test/support/capture-traffic.js'

const secret = 'whsec_redis_read'
/** A synthetic record, for streams too long to fill through a receiver. */
const synthetic = (n: number): CapturedDelivery => ({
  v: 1,
  id: `rec_${n}`,
  receivedAt: new Date(Date.UTC(2027, 0, 15, 8) + n).toISOString(),
  event: n % 3 === 0 ? 'notification.responded' : 'gesture',
  request: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', encoding: 'utf8', bytes: 2 },
  answer: { status: n % 5 === 0 ? 500 : 200, headers: {}, body: '' },
  outcome: n % 5 === 0 ? 'failed' : 'accepted',
  ...(n % 5 === 0 ? { code: 'handler_error' } : {}),
})

describe('readRedisCaptures on the shared Redis', () => {
  const shared = sharedRedisWithKeys('capture-read')
  const stream = () => shared.key()

  /** XADD of an entry of our own; its id. */
  async function add(key: string, ...fields: string[]): Promise<string> {
    const id = await shared.redis.xadd(key, '*', ...fields)
    if (!id) throw new Error('XADD gave no id')
    return id
  }

  /** The five deliveries of captureTraffic() through the real sink; what the capture handed it. */
  const captureTo = (key: string) => captureTraffic(redisCaptureSink({ client: shared.redis, key }), secret, 'app_read')

  it('reads back every record the sink wrote, equal to what was captured, oldest first', async () => {
    const key = stream()
    const captured = await captureTo(key)
    const records = await readRedisCaptures({ client: shared.redis, stream: key })
    expect(records.map((r) => r.outcome)).toEqual(['accepted', 'duplicate', 'failed', 'refused', 'accepted'])
    expect(records).toEqual(captured)
  })

  it('reads the default stream when given none', async () => {
    // The sink's default key is shared: only check that the reader looks there (nothing else is written to it here).
    const calls: string[] = []
    await readRedisCaptures({
      client: {
        xrange: async (key) => {
          calls.push(key)
          return []
        },
      },
    })
    expect(calls).toEqual(['ringhook:captures', 'ringhook:captures:unauthenticated'])
  })

  it('keeps what the filter keeps, as matchesCapture (and readCaptures) does', async () => {
    const key = stream()
    const captured = await captureTo(key)
    const [first, , third, fourth] = captured as [
      CapturedDelivery,
      CapturedDelivery,
      CapturedDelivery,
      CapturedDelivery,
    ]
    const read = async (filter: CaptureFilter) => {
      const records = await readRedisCaptures({ client: shared.redis, stream: key, filter })
      expect(records).toEqual(captured.filter((record) => matchesCapture(record, filter)))
      return records.map((record) => record.outcome)
    }
    expect(await read({ outcome: 'failed' })).toEqual(['failed'])
    expect(await read({ outcome: ['refused', 'duplicate'] })).toEqual(['duplicate', 'refused'])
    expect(await read({ event: 'notification.responded' })).toEqual(['accepted'])
    // The delivery with a bad signature is not an authentic event: it has no event name.
    expect(await read({ event: 'gesture' })).toEqual(['accepted', 'duplicate', 'failed'])
    expect(await read({ id: [first.id, fourth.id] })).toEqual(['accepted', 'refused'])
    expect(await read({ since: third.receivedAt })).toEqual(
      captured.filter((r) => r.receivedAt >= third.receivedAt).map((r) => r.outcome),
    )
    expect(await read({ until: new Date(third.receivedAt) })).toEqual(
      captured.filter((r) => r.receivedAt < third.receivedAt).map((r) => r.outcome),
    )
    expect(await read({ since: '2000-01-01T00:00:00Z', until: '2000-01-02T00:00:00Z' })).toEqual([])
    expect(
      (await readRedisCaptures({ client: shared.redis, stream: key, filter: { event: 'gesture' }, count: 2 })).map(
        (r) => r.outcome,
      ),
    ).toEqual(['accepted', 'duplicate'])
  })

  it('reads a long stream page by page, in order, and stops at count', async () => {
    const key = stream()
    const sink = redisCaptureSink({ client: shared.redis, key })
    const all = Array.from({ length: 2345 }, (_, n) => synthetic(n))
    for (let i = 0; i < all.length; i += 500) await sink.write(all.slice(i, i + 500))
    const pages: number[] = []
    const counting = {
      xrange: async (k: string, start: string, end: string, token: 'COUNT', n: number) => {
        const entries = await shared.redis.xrange(k, start, end, token, n)
        pages.push(entries.length)
        return entries
      },
    }

    expect(await readRedisCaptures({ client: counting, stream: key })).toEqual(all)
    expect(pages).toEqual([1000, 1000, 345, 0]) // the last: the unauthenticated stream, empty

    pages.length = 0
    expect((await readRedisCaptures({ client: counting, stream: key, count: 1500 })).map((r) => r.id)).toEqual(
      all.slice(0, 1500).map((r) => r.id),
    )
    expect(pages).toEqual([1000, 500, 0])

    const failed = await readRedisCaptures({
      client: shared.redis,
      stream: key,
      filter: { outcome: 'failed' },
      count: 300,
    })
    expect(failed).toEqual(all.filter((r) => r.outcome === 'failed').slice(0, 300))
    expect(failed.at(-1)?.id).toBe('rec_1495') // past the first page
  })

  it('throws RedisCaptureError naming the entry that is not a captured delivery', async () => {
    const key = stream()
    await captureTo(key)
    const bad = await add(key, 'record', JSON.stringify({ v: 1, id: 'x' }), 'event', '', 'outcome', 'x')
    const error = await readRedisCaptures({ client: shared.redis, stream: key }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RedisCaptureError)
    expect(error).toMatchObject({ name: 'RedisCaptureError', stream: key, entry: bad })
    expect((error as Error).message).toContain(`${key} entry ${bad} is not a captured delivery`)
    expect((error as Error).message).toContain('receivedAt')
    // Filtered out or not: every entry is checked, as readCaptures checks every line.
    await expect(
      readRedisCaptures({ client: shared.redis, stream: key, filter: { outcome: 'failed' } }),
    ).rejects.toThrow(RedisCaptureError)

    const notJson = stream()
    const id = await add(notJson, 'record', '{"v":1,', 'event', '', 'outcome', 'failed')
    await expect(readRedisCaptures({ client: shared.redis, stream: notJson })).rejects.toMatchObject({
      entry: id,
      message: `${notJson} entry ${id}: its \`record\` is not JSON`,
    })
    const noRecord = stream()
    const other = await add(noRecord, 'something', 'else')
    await expect(readRedisCaptures({ client: shared.redis, stream: noRecord })).rejects.toMatchObject({
      entry: other,
      message: `${noRecord} entry ${other} has no \`record\` field`,
    })
  })

  it('reads a stream that does not exist as no records, and refuses a bad client or count', async () => {
    expect(await readRedisCaptures({ client: shared.redis, stream: stream() })).toEqual([])
    await expect(readRedisCaptures({ client: {} as never })).rejects.toThrow(/xrange/)
    await expect(readRedisCaptures({ client: shared.redis, stream: stream(), count: 0 })).rejects.toThrow(/count/)
    await expect(readRedisCaptures({ client: shared.redis, stream: stream(), count: 1.5 })).rejects.toThrow(/count/)
  })
})
