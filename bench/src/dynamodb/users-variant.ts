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
  const { client, table } = local
  const receiver = createReceiver({ secret, logger: silentLogger, store: createDynamoDbStore({ client, table }) })
  if (states) createUserStates({ store: dynamoDbUserStore({ client, table }) }).attach(receiver)
  else receiver.on(LIFECYCLE_EVENTS, () => {})
  return { receiver, close: local.close }
}
