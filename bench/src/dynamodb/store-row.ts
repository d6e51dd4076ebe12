// The DynamoDB dedup store's claim + complete per second, beside the memory, Redis and Postgres rows.
import { createDynamoDbStore } from '@ringhook/dynamodb'
import { startLocalDynamo } from './local.js'

export async function dynamoDbStoreRow(
  throughput: (
    store: ReturnType<typeof createDynamoDbStore>,
    durationMs: number,
    concurrency: number,
  ) => Promise<number>,
  durationMs: number,
  concurrency: number,
) {
  const local = await startLocalDynamo()
  try {
    const store = createDynamoDbStore({
      client: local.client,
      table: local.table,
      prefix: `bench:${process.pid}:`,
      // Throughput, not a deadline: dynalite on a loaded machine may take seconds to answer 50 at once.
      requestTimeoutMs: 60_000,
    })
    return {
      store: 'DynamoDB (dynalite in process, AWS SDK v3)',
      opsPerSec: await throughput(store, durationMs, concurrency),
    }
  } finally {
    await local.close()
  }
}
