// Where the example remembers deliveries. On Lambda each invocation may run in another execution
// environment: with DYNAMODB_TABLE set, they share one DynamoDB table, so a retry landing anywhere
// is answered as the duplicate it is. Without it, each environment remembers only its own deliveries
// (and the receiver warns so at its first delivery).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { DedupStore } from '@ringhook/core/store'
import { createDynamoDbStore } from '@ringhook/dynamodb'

export function storeFromEnv(env: NodeJS.ProcessEnv): DedupStore | undefined {
  const table = env.DYNAMODB_TABLE
  if (!table) return undefined
  // DYNAMODB_ENDPOINT: a local engine (dynalite, DynamoDB Local), which checks no credentials and
  // needs a region only for the SDK to sign with. On Lambda, the function's role and region are used.
  const endpoint = env.DYNAMODB_ENDPOINT
  const local = endpoint
    ? {
        endpoint,
        region: env.AWS_REGION ?? 'local',
        ...(env.AWS_ACCESS_KEY_ID ? {} : { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      }
    : {}
  return createDynamoDbStore({ client: new DynamoDBClient(local), table })
}
