// The parts of the Workers runtime the package uses, as structural types: an app's own types
// (`@cloudflare/workers-types`, or `wrangler types`) fit them, and the package needs neither.

/** A value SQLite stores or returns. */
export type SqlValue = string | number | null | ArrayBuffer

/** The rows of one statement, as `ctx.storage.sql.exec` returns them. */
export interface SqlRows {
  /** Every row, each a record of its columns. */
  toArray(): Record<string, SqlValue>[]
}

/** A Durable Object's own SQLite database (`ctx.storage.sql`). */
export interface SqlDatabase {
  /** Runs one statement (or several, without bindings) with its `?` bound in order. */
  exec(query: string, ...bindings: SqlValue[]): SqlRows
}

/** The storage of a SQLite-backed Durable Object (`ctx.storage`), the part the object uses. */
export interface ObjectStorage {
  /** The object's own SQLite database. */
  readonly sql: SqlDatabase
  /** Runs `closure` as one transaction: all of its writes land, or none. */
  transactionSync<T>(closure: () => T): T
  /** When the object's alarm is set to run, or `null`. */
  getAlarm(): Promise<number | null>
  /** Sets the object's one alarm (ms since the epoch). */
  setAlarm(scheduledTime: number): Promise<void>
}

/** What Workers hands a Durable Object's constructor as `ctx`: the part the object uses. */
export interface ObjectState {
  /** The object's storage. */
  readonly storage: ObjectStorage
  /** Holds every other event of the object until `callback` has settled. */
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>
}

/** A stub of one Durable Object: requests to it reach that one object, wherever it runs. */
export interface ObjectStub {
  /** Sends a request to the object's `fetch`. */
  fetch(request: Request): Promise<Response>
}

/**
 * The Durable Object namespace binding of {@link RinghookObject} (`env.RINGHOOK` when the wrangler
 * config names the binding so): the stores reach their objects through it by name.
 */
export interface ObjectNamespace {
  /** The id of the object with this name: always the same object for the same name. */
  idFromName(name: string): unknown
  /** A stub of the object with this id. */
  get(id: unknown): ObjectStub
}
