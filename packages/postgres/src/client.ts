/** What runs a query: a node-postgres `Pool`, `PoolClient` or `Client`. */
export interface Queryable {
  /** Runs one statement (several only without `values`); resolves its rows. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

/** A client checked out of a pool: node-postgres' `PoolClient`. */
export interface PooledClient extends Queryable {
  /** Gives it back; with an error (or `true`) the pool closes it instead. */
  release(destroy?: Error | boolean): void
  /** node-postgres emits `error` on a client whose connection broke. */
  on(event: 'error', listener: (error: Error) => void): unknown
  /** Stops listening. */
  off(event: 'error', listener: (error: Error) => void): unknown
}

/** What the stores need of a pool: node-postgres' `Pool` is one as it is. */
export interface PoolLike<Client extends PooledClient = PooledClient> extends Queryable {
  /** Checks a client out of the pool, for a transaction of its own. */
  connect(): Promise<Client>
}

/** Whether a value has the shape of {@link PoolLike}. */
export const isPool = (value: unknown): value is PoolLike =>
  typeof (value as PoolLike | undefined)?.query === 'function' &&
  typeof (value as PoolLike | undefined)?.connect === 'function'

/**
 * The client type a pool's `connect()` resolves: node-postgres' `PoolClient` for its `Pool`. Matched
 * against two signatures because TypeScript infers from an overloaded method's last one, which is
 * node-postgres' callback form.
 */
export type ClientOf<Pool> = Pool extends { connect(): Promise<infer Client>; connect(callback: never): void }
  ? Client extends PooledClient
    ? Client
    : never
  : never
