import { randomUUID } from 'node:crypto'
import type { HandlerContext } from '@ringhook/core'
import { RinghookConfigError } from '@ringhook/core'
import { ACK_BODY } from '@ringhook/core/api'
import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import { type ClaimRow, toClaim } from './claim-row.js'
import type { ClientOf, PooledClient, PoolLike } from './client.js'
import { PostgresStoreError } from './errors.js'
import { HeldClaims } from './held-claims.js'
import { milliseconds, type PostgresStoreOptions, resolveOptions } from './options.js'
import { storedKey } from './stored-key.js'
import { sweeper } from './sweep.js'
import type { Table } from './table.js'
import { describe, withTimeout } from './timeout.js'

/** What the inbox takes: the store's options, and how long a committed delivery is kept. */
export interface PostgresInboxOptions<Pool extends PoolLike = PoolLike> extends PostgresStoreOptions<Pool> {
  /**
   * How long a delivery committed by an inbox handler is kept before the receiver records its reply.
   * Keep it equal to the receiver's `dedup.completedTtlMs` (default 15 min, which is this default).
   */
  completedTtlMs?: number
}

/** A handler that runs in the delivery's transaction: `inbox.handler(fn)` makes a receiver's handler of it. */
export type InboxHandler<Event, Client, Result> = (
  event: Event,
  tx: Client,
  context: HandlerContext,
) => Result | PromiseLike<Result>

/** A dedup store whose claim is a transaction, and the handlers that write in it. */
export interface PostgresInbox<Client extends PooledClient = PooledClient> extends DedupStore {
  claim(key: string, inFlightTtlMs: number): Promise<ClaimResult>
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void>
  release(key: string, token: string): Promise<void>
  /**
   * Wraps a handler so that it runs in the transaction that holds the delivery's claim: its writes
   * on `tx` and the delivery's completion commit together before the receiver answers, or roll
   * back together and the receiver answers 500 so the service retries. One per event.
   */
  handler<Event extends { event: string }, Result>(
    fn: InboxHandler<Event, Client, Result>,
  ): (event: Event, context: HandlerContext) => Promise<Result>
  /** Rolls back the transactions still open (shut the receiver first) and gives their clients back. */
  close(): Promise<void>
}

const FIFTEEN_MINUTES = 15 * 60_000
// What a handler's commit stores as the reply: the acknowledgement, which is every event's reply but
// a gesture's, or a gesture reply without a vibe, which is the receiver's answer to a gesture handler
// that returned nothing. Copies get it if the receiver dies before it records a vibe (README).
const ACK: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
const NO_VIBE: StoredReply = Object.freeze({ status: 200, body: '{"success":true}' })

/**
 * A dedup store on Postgres in which a delivery's claim is a transaction on a client of its own:
 * an inbox handler's writes commit with the delivery's completion, so the effect happens exactly
 * once whatever crashes. Copies are answered 409 while the transaction is open, without waiting.
 *
 * @example
 * const inbox = createPostgresInbox({ pool })
 * const receiver = createReceiver({ secret, store: inbox, onDeadline: 'retry' })
 * receiver.on('notification.responded', inbox.handler(async (event, tx) => {
 *   await tx.query('INSERT INTO answers (event_id, response) VALUES ($1, $2)', [event.data.event_id, event.data.response])
 * }))
 */
export function createPostgresInbox<Pool extends PoolLike>(
  options: PostgresInboxOptions<Pool>,
): PostgresInbox<ClientOf<Pool>> {
  type Client = ClientOf<Pool>
  const resolved = resolveOptions<Pool>(options, 'createPostgresInbox')
  const { pool, table, timeoutMs, sweepEvery, sweepLimit } = resolved
  // What ClientOf<Pool> reads off the pool's type is what its connect() resolves at run time.
  const connect = () => pool.connect() as Promise<Client>
  const completedTtlMs = completedTtl(options)
  const sweep = sweeper(pool, table.sweep, sweepEvery, sweepLimit)
  const held = new HeldClaims<Client>(timeoutMs)

  const claim = async (key: string, inFlightTtlMs: number): Promise<ClaimResult> => {
    sweep()
    const client = await withTimeout(connect(), timeoutMs, 'claim', (late) => late.release())
    const token = randomUUID()
    const entry = held.open(key, client, token, inFlightTtlMs)
    let result: ClaimResult
    try {
      result = await withTimeout(begin(client, table, key, token, milliseconds(inFlightTtlMs)), timeoutMs, 'claim')
    } catch (error) {
      held.letGo(key, entry, error)
      throw error
    }
    if (result.state === 'claimed') held.hold(key, entry)
    else await held.rollBack(key, entry).catch(() => {})
    return result
  }

  const complete = async (key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void> => {
    // Not this process's claim, or one that lapsed: another owns the key now, or nobody does.
    const entry = held.get(key, token)
    if (!entry) return
    const values = [storedKey(key), token, reply.status, reply.body, milliseconds(ttlMs), null]
    if (entry.state === 'committed') {
      held.forget(key)
      const done = entry.committed
      const same = done && !done.due && done.reply.status === reply.status && done.reply.body === reply.body
      if (!same || ttlMs !== completedTtlMs)
        await withTimeout(pool.query(table.complete, values), timeoutMs, 'complete')
      return
    }
    // No inbox handler took the transaction: the reply and the completion commit on their own.
    try {
      await withTimeout(commit(entry.client, table, values), timeoutMs, 'complete')
      held.letGo(key, entry)
    } catch (error) {
      held.letGo(key, entry, error)
      throw error
    }
  }

  const release = async (key: string, token: string): Promise<void> => {
    const entry = held.get(key, token)
    if (!entry) return
    // Committed by a handler, then failed later (another handler, a bad vibe): the effect is in the
    // database, so the delivery stays done and its copies get the committed reply.
    if (entry.state === 'committed') held.forget(key)
    else await held.rollBack(key, entry)
  }

  return {
    claim,
    complete,
    release,
    handler: (fn) => inboxHandler(held, table, completedTtlMs, fn),
    close: () => held.close(),
  }
}

function completedTtl(options: PostgresInboxOptions<PoolLike>): number {
  const completedTtlMs = options.completedTtlMs ?? FIFTEEN_MINUTES
  if (!Number.isFinite(completedTtlMs) || completedTtlMs <= 0) {
    throw new RinghookConfigError(
      `createPostgresInbox: completedTtlMs must be a positive number, got ${completedTtlMs}`,
    )
  }
  return completedTtlMs
}

/**
 * A receiver's handler that runs `fn` in the transaction holding the delivery's claim, then records
 * the delivery's completion and commits both; the receiver records a gesture's vibe after it.
 */
function inboxHandler<Client extends PooledClient, Event extends { event: string }, Result>(
  held: HeldClaims<Client>,
  table: Table,
  completedTtlMs: number,
  fn: InboxHandler<Event, Client, Result>,
): (event: Event, context: HandlerContext) => Promise<Result> {
  return async (event, context) => {
    const key = context.delivery.key
    const entry = held.get(key)
    if (!entry) {
      throw new PostgresStoreError(
        'commit',
        'this delivery holds no transaction of this inbox: give the inbox to createReceiver as its `store` (the claim lapsed, or the store failed, if it is)',
      )
    }
    if (entry.state !== 'open') {
      throw new PostgresStoreError('commit', 'another inbox handler already has this delivery: one per event')
    }
    entry.state = 'busy'
    let value: Awaited<Result>
    try {
      value = await fn(event, entry.client, context)
    } finally {
      if (entry.state === 'busy') entry.state = 'open'
    }
    // Every event but a gesture is answered the acknowledgement, whatever its handler returned; a
    // gesture's vibe is checked and written by the receiver: copies wait for it (409) meanwhile.
    const due = event.event === 'gesture' && value !== undefined
    const reply = event.event === 'gesture' ? NO_VIBE : ACK
    const values = [
      storedKey(key),
      entry.token,
      reply.status,
      reply.body,
      completedTtlMs,
      due ? entry.inFlightTtlMs : null,
    ]
    try {
      await commit(entry.client, table, values)
    } catch (error) {
      held.letGo(key, entry, error)
      throw new PostgresStoreError('commit', `${describe(error)}: nothing was committed`, { cause: error })
    }
    entry.state = 'committed'
    entry.committed = { reply, due }
    held.letGo(key, entry)
    return value
  }
}

/** Opens the claim's transaction and takes the key's lock and row, or says who has them. */
async function begin(client: PooledClient, table: Table, key: string, token: string, ttlMs: number) {
  // The in-flight ttl as the server's own limit: a transaction left idle that long (its process hung,
  // or died without its connection closing) is ended by Postgres, which frees the delivery.
  await client.query(`BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${ttlMs}`)
  const { rows } = await client.query(table.lockAndClaim, [storedKey(key), token, ttlMs])
  return toClaim(rows[0] as ClaimRow | undefined, token)
}

/** Records the reply in the transaction (`values` of `table.complete`) and commits it. */
async function commit(client: PooledClient, table: Table, values: unknown[]): Promise<void> {
  // A transaction a handler's failed statement aborted fails here, rather than COMMIT quietly rolling back.
  await client.query(table.complete, values)
  await client.query('COMMIT')
}
