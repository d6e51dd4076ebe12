/**
 * DynamoDB for ringhook receivers on AWS Lambda, where every invocation may land in another
 * execution environment: a dedup store and a users' state store in one table, and that table's
 * schema and creation.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  createDynamoDbStore,
  DEFAULT_DEDUP_PREFIX,
  type DynamoDbStore,
  type DynamoDbStoreOptions,
} from './dedup-store.js'
export { DynamoDbStoreError, type DynamoDbStoreOperation } from './errors.js'
export { DEFAULT_REQUEST_TIMEOUT_MS, type DynamoDbOptions } from './options.js'
export {
  type CreateTableResult,
  createTable,
  DEFAULT_TABLE,
  TABLE_SCHEMA,
  tableDefinition,
} from './table.js'
export { DEFAULT_USERS_PREFIX, type DynamoDbUserStoreOptions, dynamoDbUserStore } from './user-store.js'
