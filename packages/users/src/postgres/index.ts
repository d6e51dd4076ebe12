/**
 * Deprecated: `postgresUserStore` and `migrateUserStates` are in `@ringhook/postgres` now; this copy is
 * removed in 0.3.0. Users' states on Postgres: `postgresUserStore({ pool })` with the app's own
 * node-postgres pool; with `@ringhook/postgres`'s inbox, each state is written in its delivery's transaction.
 *
 * @packageDocumentation
 */
export {
  migrateUserStates,
  type PostgresUserStoreOptions,
  postgresUserStore,
  type UsersPool,
  type UsersQueryable,
} from './postgres-store.js'
export { DEFAULT_USERS_TABLE, usersSchemaSql } from './table.js'
