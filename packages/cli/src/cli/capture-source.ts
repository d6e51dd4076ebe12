import type { CapturedDelivery, CaptureFilter } from '@ringhook/core/capture'
import { EXIT, UsageError } from './io.js'
import { isMissing, missingPeer } from './optional.js'
import { timedOut } from './timeout.js'

/**
 * A store `ringhook replay` reads captured deliveries from: the Redis stream `redisCaptureSink`
 * writes, or the Postgres table of `postgresCaptureSink`. No key or table: the sink's default.
 */
export type CaptureStore =
  | { kind: 'redis'; url: string; stream?: string }
  | { kind: 'postgres'; url: string; table?: string }

/** Why a store's captures could not be read, and the exit code that says it. */
export class CaptureStoreError extends Error {
  override readonly name = 'CaptureStoreError'
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}

/** How long connecting may take before the store counts as down. */
const CONNECT_TIMEOUT_MS = 5_000

/**
 * The captured deliveries of a Redis stream or a Postgres table that match `filter`, oldest first.
 * The store's packages are optional peers of the CLI, loaded here, only for the flag that needs
 * them; the connection is closed before this returns or throws, so the CLI exits when it is done.
 */
export function readStoreCaptures(
  store: CaptureStore,
  filter: CaptureFilter,
  timeoutMs: number,
): Promise<CapturedDelivery[]> {
  return store.kind === 'redis' ? fromRedis(store, filter, timeoutMs) : fromPostgres(store, filter, timeoutMs)
}

async function fromRedis(
  store: { url: string; stream?: string },
  filter: CaptureFilter,
  timeoutMs: number,
): Promise<CapturedDelivery[]> {
  const where = `Redis at ${shown(store.url, '--redis', ['redis:', 'rediss:'], 'redis://127.0.0.1:6379/0')}`
  const redis = await need('@ringhook/redis', () => import('@ringhook/redis'), '--redis', ['@ringhook/redis'])
  const { Redis } = await need('ioredis', () => import('ioredis'), '--redis', ['ioredis'], ['@ringhook/redis'])
  const stream = store.stream ?? redis.DEFAULT_CAPTURE_STREAM
  // A Redis that is down fails at once: no reconnecting, and no command waits for a connection.
  const client = new Redis(store.url, {
    lazyConnect: true,
    connectTimeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
    // A server that accepts and never answers: each command, the ready check's included, gives up.
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    // A connection cut during its ready check is ended again by ioredis, with a timer (2 s by
    // default) for a socket that is closed already: the CLI would wait it out before exiting.
    disconnectTimeout: 100,
  })
  // Failures surface through connect() and the commands, not as unhandled events; connect() only
  // says the connection closed, the event says why (ECONNREFUSED).
  let cause: unknown
  client.on('error', (error) => {
    cause ??= error
  })
  try {
    try {
      await client.connect()
    } catch (error) {
      throw new CaptureStoreError(`${where} did not answer: ${timeoutOr(cause ?? error, timeoutMs)}`, EXIT.unreachable)
    }
    const type = await client.type(stream)
    if (type === 'none')
      throw new CaptureStoreError(
        `No stream "${stream}" in ${where}: nothing was captured there, or --stream names another key.`,
        EXIT.usage,
      )
    if (type !== 'stream')
      throw new CaptureStoreError(`"${stream}" in ${where} is a ${type}, not a stream of captures.`, EXIT.usage)
    return await redis.readRedisCaptures({ client, stream, filter })
  } catch (error) {
    if (error instanceof CaptureStoreError) throw error
    if (error instanceof redis.RedisCaptureError) throw new CaptureStoreError(error.message, EXIT.usage)
    throw new CaptureStoreError(
      `Reading "${stream}" from ${where} failed: ${timeoutOr(error, timeoutMs)}`,
      EXIT.unreachable,
    )
  } finally {
    client.disconnect()
  }
}

async function fromPostgres(
  store: { url: string; table?: string },
  filter: CaptureFilter,
  timeoutMs: number,
): Promise<CapturedDelivery[]> {
  const url = shown(store.url, '--postgres', ['postgres:', 'postgresql:'], 'postgres://user@127.0.0.1:5432/app')
  const where = `Postgres at ${url}`
  const both = ['@ringhook/postgres', 'pg']
  const postgres = await need('@ringhook/postgres', () => import('@ringhook/postgres'), '--postgres', both)
  const { default: pg } = await need('pg', () => import('pg'), '--postgres', ['pg'], ['@ringhook/postgres'])
  const table = store.table ?? postgres.DEFAULT_CAPTURE_TABLE
  const pool = new pg.Pool({
    connectionString: store.url,
    max: 1,
    connectionTimeoutMillis: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
    // A server that accepts and never answers a query: the client gives up on it.
    query_timeout: timeoutMs,
  })
  // A connection that breaks while idle: the query that uses it fails, and says so.
  pool.on('error', () => {})
  try {
    return await postgres.readPostgresCaptures({ pool, table, filter })
  } catch (error) {
    if (error instanceof postgres.PostgresCaptureError) throw new CaptureStoreError(error.message, EXIT.usage)
    // An invalid --table (RinghookConfigError, by name: the CLI's @ringhook/core may be another copy).
    if ((error as Error)?.name === 'RinghookConfigError') throw new UsageError(`--table: ${(error as Error).message}`)
    if ((error as { code?: unknown })?.code === '42P01')
      throw new CaptureStoreError(
        `No table "${table}" in ${where}: nothing was captured there, or --table names another.`,
        EXIT.usage,
      )
    throw new CaptureStoreError(
      `Reading "${table}" from ${where} failed: ${timeoutOr(error, timeoutMs)}`,
      EXIT.unreachable,
    )
  } finally {
    await pool.end()
  }
}

/** Imports a package `flag` needs; when it is not installed, says what to install (`missingPeer`). */
async function need<T>(
  name: string,
  load: () => Promise<T>,
  flag: string,
  install: string[],
  alongside: string[] = [],
): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (!isMissing(error, name)) throw error
    throw new CaptureStoreError(missingPeer(`replay ${flag}`, name, install, alongside), EXIT.usage)
  }
}

/** The store's URL as messages show it: no user, password or parameters. */
function shown(text: string, flag: string, protocols: string[], example: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`${flag} takes a URL, such as ${example}.`)
  }
  if (!protocols.includes(url.protocol))
    throw new UsageError(`${flag} takes a ${protocols.map((p) => `${p}//`).join(' or ')} URL, such as ${example}.`)
  return `${url.protocol}//${url.host}${url.pathname}`
}

/** What went wrong: the timeout, named, when the store gave up waiting (ioredis, pg say so in words). */
function timeoutOr(error: unknown, timeoutMs: number): string {
  const message = messageOf(error)
  return /timed out|timeout/i.test(message) ? `${timedOut(timeoutMs)}; ${message}` : message
}

/** An error's message; a connection refused on every address of a name is an AggregateError with none. */
function messageOf(error: unknown): string {
  const { message, code, errors } = (error ?? {}) as { message?: string; code?: string; errors?: unknown[] }
  return message || errors?.map(messageOf).join('; ') || code || String(error)
}
