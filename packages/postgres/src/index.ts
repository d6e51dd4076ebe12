/**
 * Postgres for ringhook receivers: a dedup store shared by every instance, and an inbox that
 * commits a handler's writes together with the delivery's claim, so its effect happens once; a store
 * of users' states, written in the delivery's transaction; and a table for captured deliveries, with
 * its reader for replay.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { PostgresCaptureError, type ReadPostgresCapturesOptions, readPostgresCaptures } from './capture-read.js'
export { DEFAULT_CAPTURE_TABLE, type PostgresCaptureSinkOptions, postgresCaptureSink } from './capture-sink.js'
export type { ClientOf, PooledClient, PoolLike, Queryable } from './client.js'
export { PostgresStoreError, type PostgresStoreOperation } from './errors.js'
export {
  createPostgresInbox,
  type InboxHandler,
  type PostgresInbox,
  type PostgresInboxOptions,
} from './inbox.js'
export { migrate, schemaSql } from './migrate.js'
export {
  DEFAULT_QUERY_TIMEOUT_MS,
  DEFAULT_SWEEP_EVERY,
  DEFAULT_SWEEP_LIMIT,
  type PostgresStoreOptions,
} from './options.js'
export { createPostgresStore, type PostgresStore } from './postgres-store.js'
export { type RunOnceOptions, runOnce } from './run-once.js'
export { sweepExpired } from './sweep.js'
export { DEFAULT_TABLE } from './table.js'
export { migrateUserStates, type PostgresUserStoreOptions, postgresUserStore } from './user-store.js'
export { DEFAULT_USERS_TABLE, usersSchemaSql } from './user-table.js'
