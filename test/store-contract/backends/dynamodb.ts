// The DynamoDB stores, as each contract takes them, on a dynalite of their own (a real DynamoDB
// implementation, in this process). Each "instance" holds a client of its own, as separate Lambda
// execution environments would; every store is under a prefix no other store of the run uses.
import { randomUUID } from 'node:crypto'
import { createDynamoDbStore, dynamoDbUserStore } from '@ringhook/dynamodb'
import type { UserStore } from '@ringhook/users'
import { PATIENT, startDynalite } from '../../dynamodb/support/dynalite.js'
import type { DedupStoreKind } from '../dedup-store-contract.js'
import type { UserStoreKind } from '../user-state-store-contract.js'

export const dynamoDbDedup: DedupStoreKind = {
  name: 'dynamodb',
  open: async () => {
    const dynamo = await startDynalite()
    const prefix = `${randomUUID()}:`
    return {
      pair: () => [
        createDynamoDbStore({ client: dynamo.client(), table: dynamo.table, prefix, ...PATIENT }),
        createDynamoDbStore({ client: dynamo.client(), table: dynamo.table, prefix, ...PATIENT }),
      ],
      close: () => dynamo.close(),
    }
  },
}

export const dynamoDbUsers: UserStoreKind = {
  name: 'dynamodb',
  open: async () => {
    const dynamo = await startDynalite()
    return {
      instances: async (count) => {
        const prefix = `${randomUUID()}:`
        return Array.from(
          { length: count },
          () =>
            dynamoDbUserStore({
              client: dynamo.client(),
              table: dynamo.table,
              prefix,
              ...PATIENT,
            }) as UserStore<unknown>,
        )
      },
      close: () => dynamo.close(),
    }
  },
}
