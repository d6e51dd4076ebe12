import type { ObjectState, SqlValue } from './bindings.js'
import { claim, complete, DEDUP_SCHEMA, release, sweepDedup } from './dedup-table.js'
import { LIMITS_SCHEMA, leave, pause, remaining, restore, sweepLimits, take } from './limits-table.js'
import type { Handler, Operation, Table } from './protocol.js'
import { apply, count, get, page, USERS_SCHEMA } from './users-table.js'

type Role = 'dedup' | 'users' | 'limits'

const OPERATIONS: Record<Operation, { role: Role; run: Handler }> = {
  claim: { role: 'dedup', run: claim },
  complete: { role: 'dedup', run: complete },
  release: { role: 'dedup', run: release },
  apply: { role: 'users', run: apply },
  get: { role: 'users', run: get },
  page: { role: 'users', run: page },
  count: { role: 'users', run: count },
  take: { role: 'limits', run: take },
  pause: { role: 'limits', run: pause },
  remaining: { role: 'limits', run: remaining },
  leave: { role: 'limits', run: leave },
  restore: { role: 'limits', run: restore },
}

const SCHEMAS: Record<Role, string> = { dedup: DEDUP_SCHEMA, users: USERS_SCHEMA, limits: LIMITS_SCHEMA }

/**
 * The Durable Object behind the package's three stores. Export it from the Worker's entry and bind it
 * in the wrangler config as a SQLite-backed class (`new_sqlite_classes`); every store reaches its
 * objects through that one binding, by name: a dedup shard, a users' shard, or an API key's limits.
 *
 * Each operation runs as one transaction in the object, which runs one at a time, so it is atomic
 * without locks; its answer leaves the object only once its writes are stored (the output gate).
 * What lapses (claims, replies, slots, pauses) is deleted by the object's alarm, set to the next
 * time something lapses; reads skip what has lapsed meanwhile.
 *
 * @example
 * // src/index.ts
 * export { RinghookObject } from '@ringhook/cloudflare'
 * // wrangler.jsonc
 * // "durable_objects": { "bindings": [{ "name": "RINGHOOK", "class_name": "RinghookObject" }] },
 * // "migrations": [{ "tag": "v1", "new_sqlite_classes": ["RinghookObject"] }]
 */
export class RinghookObject {
  readonly #ctx: ObjectState
  /** The roles whose tables this object created since it started. */
  readonly #ready = new Set<Role>()
  /** When the alarm is set to run, as far as this object knows; `null` for none. */
  #alarmAt: number | null = null

  constructor(ctx: ObjectState, _env?: unknown) {
    this.#ctx = ctx
    void ctx.blockConcurrencyWhile(async () => {
      this.#alarmAt = await ctx.storage.getAlarm()
    })
  }

  /** Runs one store operation sent by {@link createDurableStore}, {@link durableUserStore} or {@link createDurableLimitStore}. */
  async fetch(request: Request): Promise<Response> {
    let message: { operation?: unknown; args?: unknown }
    try {
      message = (await request.json()) as typeof message
    } catch {
      return Response.json({ error: 'the request is not JSON' }, { status: 400 })
    }
    const operation = OPERATIONS[message?.operation as Operation]
    if (!operation || !Array.isArray(message.args)) {
      return Response.json({ error: `no such operation: ${String(message?.operation)}` }, { status: 400 })
    }
    let lapses: number | undefined
    try {
      this.#prepare(operation.role)
      const value = this.#ctx.storage.transactionSync(() => {
        const table = this.#table((at) => {
          lapses = lapses === undefined ? at : Math.min(lapses, at)
        })
        return operation.run(table, message.args as unknown[])
      })
      if (lapses !== undefined && (this.#alarmAt === null || lapses < this.#alarmAt)) await this.#setAlarm(lapses)
      return Response.json({ value })
    } catch (error) {
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 })
    }
  }

  /** Deletes what has lapsed, then sets the alarm for the next thing to lapse. */
  async alarm(): Promise<void> {
    this.#alarmAt = null
    const next = this.#ctx.storage.transactionSync(() => {
      const times: number[] = []
      const tables = this.#existing()
      if (tables.has('dedup')) times.push(sweepDedup(this.#table(() => {})) ?? Number.POSITIVE_INFINITY)
      if (tables.has('limit_slots')) times.push(sweepLimits(this.#table(() => {})) ?? Number.POSITIVE_INFINITY)
      return Math.min(...times)
    })
    if (Number.isFinite(next)) await this.#setAlarm(next)
  }

  async #setAlarm(at: number): Promise<void> {
    this.#alarmAt = at
    await this.#ctx.storage.setAlarm(at)
  }

  /** The tables this object holds. */
  #existing(): Set<string> {
    const rows = this.#ctx.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray()
    return new Set(rows.map((row) => String(row.name)))
  }

  /** Creates the role's tables, once per start of the object. */
  #prepare(role: Role): void {
    if (this.#ready.has(role)) return
    this.#ctx.storage.sql.exec(SCHEMAS[role])
    this.#ready.add(role)
  }

  #table(expireAt: (at: number) => void): Table {
    const { sql } = this.#ctx.storage
    return {
      exec: (query: string, ...bindings: SqlValue[]) => sql.exec(query, ...bindings).toArray(),
      now: Date.now(),
      expireAt,
    }
  }
}
