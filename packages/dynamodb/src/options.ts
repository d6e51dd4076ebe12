import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { RinghookConfigError } from '@ringhook/core'
import { tableName } from './table.js'

/** What every store of this package is given. */
export interface DynamoDbOptions {
  /** The app's `DynamoDBClient` from `@aws-sdk/client-dynamodb`, created once per execution environment. */
  client: DynamoDBClient
  /** The table, made by `createTable` or from `tableDefinition`. Default `ringhook`. */
  table?: string
  /**
   * Longest wait for one request, the SDK's own retries included. Past it the operation fails: from
   * the dedup store, the receiver answers 503 so that the service retries. Default 2000 ms, room
   * for a cold start's first request (a TLS handshake and the credentials' lookup).
   */
  requestTimeoutMs?: number
}

/** The default wait for one request: two seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 2_000

// A prefix far below the key's 2048 bytes, so that a delivery key keeps most of them.
const MAX_PREFIX_BYTES = 512

export function resolveOptions(options: DynamoDbOptions & { prefix?: string }, caller: string, defaultPrefix: string) {
  const client = options?.client
  if (typeof client?.send !== 'function') {
    throw new RinghookConfigError(
      `${caller} needs \`client\`: a DynamoDBClient from @aws-sdk/client-dynamodb (\`new DynamoDBClient({})\`).`,
    )
  }
  const table = tableName(options.table, caller)
  const prefix = options.prefix ?? defaultPrefix
  if (typeof prefix !== 'string' || Buffer.byteLength(prefix) > MAX_PREFIX_BYTES) {
    throw new RinghookConfigError(`${caller}: \`prefix\` must be a string of at most ${MAX_PREFIX_BYTES} bytes`)
  }
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RinghookConfigError(`${caller}: requestTimeoutMs must be a positive number, got ${timeoutMs}`)
  }
  return { client, table, prefix, timeoutMs }
}
