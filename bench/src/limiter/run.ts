/**
 * What a trigger costs through `@ringhook/client` with no limiter, the memory limiter and the Redis
 * limiter, against a server in this process that answers at once: the difference is the limiter's.
 * Limits are set high enough that nothing ever waits; rounds are interleaved so a busy neighbour
 * slows every contender alike.
 */
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, createRateLimiter, type RinghookClient } from '@ringhook/client'
import { silentLogger } from '@ringhook/core'
import { createRedisLimitStore } from '@ringhook/redis'
import { Redis } from 'ioredis'

export interface LimiterRow {
  limiter: string
  /** Median round, microseconds a trigger. */
  microsPerTrigger: number
  /** The slowest and fastest rounds. */
  range: [number, number]
  /** Redis commands a trigger sends (0 without Redis). */
  redisCommands: number
}

export interface LimiterReport {
  triggers: number
  rounds: number
  rows: LimiterRow[]
  error?: string
}

const RESULT = JSON.stringify({
  success: true,
  event_id: 'evt_bench',
  response_mode: 'webhook',
  delivery: { method: 'push', status: 'sent', latency_ms: 1, app_state: 'active' },
})
const HIGH = {
  requestsPerKey: { limit: 1_000_000_000, windowMs: 60_000 },
  vibesPerUser: { limit: 1_000_000_000, windowMs: 60_000 },
}

export async function runLimiterBench(triggers: number, rounds: number): Promise<LimiterReport> {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(RESULT))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  const prefix = `ringhook:bench:limits:${randomUUID()}:`
  try {
    await redis.connect()
    let commands = 0
    const send = redis.sendCommand.bind(redis)
    redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
      commands++
      return send(...args)
    }) as Redis['sendCommand']
    const client = (rateLimit: Parameters<typeof createClient>[0]['rateLimit']) =>
      createClient({ apiKey: 'rk_bench', baseUrl, rateLimit, logger: silentLogger, retry: false })
    const store = createRedisLimitStore({ client: redis, prefix })
    const contenders: [string, RinghookClient][] = [
      ['none', client(false)],
      ['memory', client(createRateLimiter(HIGH))],
      ['Redis', client(createRateLimiter({ ...HIGH, store, fallback: { fleetSize: 1 }, logger: silentLogger }))],
    ]
    const times = new Map<string, number[]>(contenders.map(([name]) => [name, []]))
    const perTrigger = new Map<string, number>()
    for (let round = 0; round < rounds; round++) {
      for (const [name, c] of contenders) {
        const before = commands
        const started = performance.now()
        for (let i = 0; i < triggers; i++)
          await c.vibes.trigger({ app_id: 'app_bench', user_app_id: `user-${i % 50}`, sequence: [{ type: 'tap' }] })
        times.get(name)?.push(((performance.now() - started) * 1000) / triggers)
        perTrigger.set(name, (commands - before) / triggers)
      }
    }
    const rows = contenders.map(([name]) => {
      const sorted = [...(times.get(name) ?? [])].sort((a, b) => a - b)
      return {
        limiter: name,
        microsPerTrigger: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
        range: [sorted[sorted.length - 1] ?? Number.NaN, sorted[0] ?? Number.NaN] as [number, number],
        redisCommands: perTrigger.get(name) ?? 0,
      }
    })
    return { triggers, rounds, rows }
  } catch (error) {
    return { triggers, rounds, rows: [], error: error instanceof Error ? error.message : String(error) }
  } finally {
    await dropKeys(redis, prefix)
    redis.disconnect()
    server.close()
  }
}

async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`{${prefix}}*`).catch(() => [])
  if (keys.length > 0) await redis.del(...keys).catch(() => undefined)
}
