// DynamoDB for the bench: dynalite (a DynamoDB implementation on LevelDB, in memory) started in this
// process on port 0, with the stores' table. What its figures can tell: the cost of this package's
// requests as a client makes them (SDK marshalling and signing, HTTP on loopback, one round trip a
// claim, two when it is refused). What they cannot: DynamoDB's own latency (a few ms a request in a
// region, over TLS) or its throughput, since dynalite is JavaScript sharing this process's CPU.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { createTable } from '@ringhook/dynamodb'
import dynalite from 'dynalite'

export interface LocalDynamo {
  client: DynamoDBClient
  table: string
  close(): Promise<void>
}

/** In-process dynalite with the stores' table, and a client on it. */
export async function startLocalDynamo(): Promise<LocalDynamo> {
  const server: Server = dynalite({ createTableMs: 0 })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  })
  const table = 'ringhook-bench'
  await createTable(client, { table })
  return {
    client,
    table,
    close: async () => {
      client.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** What the report says beside every DynamoDB figure. */
export const DYNALITE_CAVEAT =
  'DynamoDB rows run on dynalite in this process: they weigh the client side of each request (the SDK, signing, a loopback round trip) and dynalite, not DynamoDB, whose requests take a few ms each over TLS in a region.'
