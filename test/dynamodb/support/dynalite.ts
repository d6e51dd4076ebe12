// A real DynamoDB implementation (dynalite, on LevelDB in memory) started in this process on port 0
// of 127.0.0.1, with the stores' table made by the package's own `createTable`.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb'
import { createTable } from '@ringhook/dynamodb'
import dynalite from 'dynalite'

export interface LocalDynamo {
  readonly endpoint: string
  readonly port: number
  readonly table: string
  /** A new client on the engine, as an execution environment of its own would hold. */
  client(config?: DynamoDBClientConfig): DynamoDBClient
  close(): Promise<void>
}

/**
 * The tests are about what the stores answer, not how fast: dynalite is JavaScript, and on a loaded
 * machine with the whole suite running a request can take longer than the stores' default 2 s.
 */
export const PATIENT = { requestTimeoutMs: 15_000 }

/** Any credentials and region: dynalite checks neither, but the SDK must have some to sign with. */
export const LOCAL_CONFIG = {
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const satisfies DynamoDBClientConfig

let tables = 0

export async function startDynalite(): Promise<LocalDynamo> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const endpoint = `http://127.0.0.1:${port}`
  const clients: DynamoDBClient[] = []
  const client = (config: DynamoDBClientConfig = {}) => {
    const made = new DynamoDBClient({ ...LOCAL_CONFIG, endpoint, ...config })
    clients.push(made)
    return made
  }
  const table = `ringhook-test-${process.pid}-${++tables}`
  await createTable(client(), { table })
  return {
    endpoint,
    port,
    table,
    client,
    close: async () => {
      for (const made of clients) made.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
