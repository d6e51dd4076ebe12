// Users' states on DynamoDB (dynalite, started here), shared by three receiver processes behind one
// URL on the service's bad days, one killed with SIGKILL mid-run: the fleet run the Redis and
// Postgres stores pass, with fewer users (dynalite is JavaScript, slower than either server).
import { randomUUID } from 'node:crypto'
import { dynamoDbUserStore } from '@ringhook/dynamodb'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { fleetRun } from '../users/support/fleet.js'
import { type LocalDynamo, startDynaliteProcess } from './support/dynalite.js'

let dynamo: LocalDynamo

beforeAll(async () => {
  dynamo = await startDynaliteProcess()
})
afterAll(() => dynamo?.close())

describe('states on DynamoDB', () => {
  it('equal the service’s for 100 users, three instances, one SIGKILLed and restarted', async () => {
    const prefix = `${randomUUID()}:`
    const { endpoint, table } = dynamo
    await fleetRun(
      {
        USERS_STORE: 'dynamodb',
        USERS_WHERE: `${prefix}states:`,
        DEDUP_WHERE: `${prefix}dedup:`,
        DYNAMODB_ENDPOINT: endpoint,
        DYNAMODB_TABLE: table,
      },
      dynamoDbUserStore({ client: dynamo.client(), table, prefix: `${prefix}states:` }),
      { count: 100 },
    )
  }, 240_000)
})
