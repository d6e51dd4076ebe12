// A real DynamoDB implementation (dynalite, on LevelDB in memory) started in this process on port 0
// of 127.0.0.1, with the stores' table made by the package's own `createTable`.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
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
  return withTable(port, async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
}

/** dynalite in a child process: a crash or a slow request there never stops the test's own event loop. */
export async function startDynaliteProcess(): Promise<LocalDynamo> {
  const child = fork(fileURLToPath(new URL('./dynalite-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const [{ port }] = (await once(child, 'message')) as [{ port: number }]
  return withTable(port, async () => {
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
  })
}

async function withTable(port: number, stop: () => Promise<void>): Promise<LocalDynamo> {
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
      await stop()
    },
  }
}
