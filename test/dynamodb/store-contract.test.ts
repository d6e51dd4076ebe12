// The dedup store contract (test/store-contract) on DynamoDB: two clients on one dynalite, as two
// Lambda execution environments. dynalite never deletes an item by its TTL, so every lapse the
// contract waits for is the store reading its own expiry, as it must on DynamoDB, whose TTL deletes late.
import { createDynamoDbStore } from '@ringhook/dynamodb'
import { afterAll, beforeAll, describe } from 'vitest'
import { storeContract } from '../store-contract/contract.js'
import { type LocalDynamo, PATIENT, startDynalite } from './support/dynalite.js'

let dynamo: LocalDynamo

beforeAll(async () => {
  dynamo = await startDynalite()
})
afterAll(() => dynamo?.close())

describe('the dynamodb store', () => {
  storeContract({
    name: 'dynamodb',
    pair: () => {
      const { table } = dynamo
      return [
        createDynamoDbStore({ client: dynamo.client(), table, ...PATIENT }),
        createDynamoDbStore({ client: dynamo.client(), table, ...PATIENT }),
      ]
    },
  })
})
