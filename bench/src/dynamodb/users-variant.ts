// The users' bench on DynamoDB: the dedup store and the users' state store on one dynalite table.
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { createDynamoDbStore, dynamoDbUserStore } from '@ringhook/dynamodb'
import { createUserStates, LIFECYCLE_EVENTS } from '@ringhook/users'
import { startLocalDynamo } from './local.js'

export async function dynamoDbVariant(
  secret: string,
  states: boolean,
): Promise<{ receiver: Receiver; close(): Promise<void> }> {
  const local = await startLocalDynamo()
  // Cost, not a deadline: dynalite on a loaded machine may take seconds to answer many at once.
  const options = { client: local.client, table: local.table, requestTimeoutMs: 60_000 }
  const receiver = createReceiver({ secret, logger: silentLogger, store: createDynamoDbStore(options) })
  if (states) createUserStates({ store: dynamoDbUserStore(options) }).attach(receiver)
  else receiver.on(LIFECYCLE_EVENTS, () => {})
  return { receiver, close: local.close }
}
