// The DynamoDB dedup store beyond the shared contract: keys DynamoDB could not take as they are,
// DynamoDB unreachable (503 store_unavailable, as with Redis down, and nothing lost once it is
// back), and the table made by the package's own helper.
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb'
import { createReceiver, RinghookConfigError, silentLogger } from '@ringhook/core'
import type { DedupStore } from '@ringhook/core/store'
import { createDynamoDbStore, createTable, DynamoDbStoreError, TABLE_SCHEMA, tableDefinition } from '@ringhook/dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from '../runtimes/built.js'
import { gesture, NOW_MS, SECRET, signed } from '../support/events.js'
import { holdPort } from '../support/ports.js'
import { type LocalDynamo, PATIENT, startDynalite } from './support/dynalite.js'

let dynamo: LocalDynamo

beforeAll(async () => {
  dynamo = await startDynalite()
})
afterAll(() => dynamo?.close())

const MINUTE = 60_000
const reply = { status: 200, body: '{"success":true}' }

describe('keys DynamoDB refuses as they are (a partition key holds at most 2048 bytes of UTF-8)', () => {
  const long = 'k'.repeat(2048)
  it.each([
    ['a NUL', `evt\u0000${randomUUID()}`],
    ['2 KiB', long],
    ['2 KiB of three-byte characters', '€'.repeat(2048)],
    ['unicode', `gesture 🛎️ ${randomUUID()} Grüße`],
    ['a lone surrogate', `lone \ud800 ${randomUUID()}`],
  ])('claims a key with %s, answers its copy with the stored reply, and tells it from a near one', async (_, key) => {
    const store: DedupStore = createDynamoDbStore({ client: dynamo.client(), table: dynamo.table, ...PATIENT })
    const first = await store.claim(key, MINUTE)
    if (first.state !== 'claimed') throw new Error(`not claimed: ${first.state}`)
    await store.complete(key, first.token, reply, MINUTE)
    expect(await store.claim(key, MINUTE)).toEqual({ state: 'completed', reply })
    // Another key is another delivery, however alike (a hashed long key, a replaced surrogate).
    for (const near of [`${key}x`, key.replace('\ud800', '\ufffd'), key.replace('\ud800', '\udc00')]) {
      if (near === key) continue
      expect((await store.claim(near, MINUTE)).state).toBe('claimed')
    }
  })
})

describe('DynamoDB unreachable', () => {
  it('answers 503 store_unavailable within the timeout, then handles the retry once it is back', async () => {
    const front = await holdPort()
    try {
      const client = dynamo.client({ endpoint: `http://127.0.0.1:${front.port}` })
      const store = createDynamoDbStore({ client, table: dynamo.table, requestTimeoutMs: 300 })
      const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger, store })
      let handled = 0
      receiver.on('gesture', () => {
        handled++
      })
      const delivery = await signed(gesture())
      const send = async () => {
        const response = await receiver.fetch(
          new Request('http://localhost/webhooks', { method: 'POST', headers: delivery.headers, body: delivery.body }),
        )
        return {
          status: response.status,
          code: ((await response.json()) as { error?: { code?: string } }).error?.code,
          duplicate: response.headers.get('x-ringhook-duplicate'),
        }
      }

      const started = Date.now()
      expect(await send()).toEqual({ status: 503, code: 'store_unavailable', duplicate: null })
      expect(Date.now() - started).toBeLessThan(3_000)
      expect(handled).toBe(0)

      front.forwardTo({ host: '127.0.0.1', port: dynamo.port })
      expect(await send()).toMatchObject({ status: 200, duplicate: null })
      expect(await send()).toMatchObject({ status: 200, duplicate: 'true' })
      expect(handled).toBe(1)
    } finally {
      await front.close()
    }
  })

  it('fails with a DynamoDbStoreError naming the operation', async () => {
    const front = await holdPort()
    try {
      const client = dynamo.client({ endpoint: `http://127.0.0.1:${front.port}` })
      const store = createDynamoDbStore({ client, table: dynamo.table, requestTimeoutMs: 200 })
      const error = await store.claim(randomUUID(), MINUTE).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DynamoDbStoreError)
      expect(error).toMatchObject({ operation: 'claim' })
    } finally {
      await front.close()
    }
  })
})

describe('the table', () => {
  it('is created once by createTable, with the key and the state index, and left alone after', async () => {
    const client = dynamo.client()
    const table = `ringhook-table-${randomUUID()}`
    // dynalite has no TTL: the helper says so rather than failing.
    expect(await createTable(client, { table })).toEqual({ created: true, ttl: false })
    expect(await createTable(client, { table })).toEqual({ created: false, ttl: false })
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }))
    expect(Table?.KeySchema).toEqual([{ AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' }])
    expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.KeySchema])).toEqual([
      [
        TABLE_SCHEMA.stateIndex,
        [
          { AttributeName: TABLE_SCHEMA.stateKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.userKey, KeyType: 'RANGE' },
        ],
      ],
    ])
  })

  it('is created by one command, `ringhook-dynamodb-table`, with the credentials of the environment', async () => {
    assertBuilt('dynamodb')
    const table = `ringhook-cli-${randomUUID()}`
    const cli = join(ROOT, 'packages/dynamodb/dist/create-table-cli.js')
    const env = { ...process.env, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' }
    const run = () =>
      promisify(execFile)(process.execPath, [cli, '--table', table, '--endpoint', dynamo.endpoint], { env })
    expect((await run()).stdout).toBe(`${table}: created, no TTL on this engine\n`)
    expect((await run()).stdout).toBe(`${table}: already there, no TTL on this engine\n`)
    const { Table } = await dynamo.client().send(new DescribeTableCommand({ TableName: table }))
    expect(Table?.TableStatus).toBe('ACTIVE')
  })

  it('refuses a bad table name or a missing client at start, with the option named', () => {
    expect(() => tableDefinition('a')).toThrow(RinghookConfigError)
    expect(() => createDynamoDbStore({ client: dynamo.client(), table: 'no spaces' })).toThrow(/`table`/)
    // @ts-expect-error: what a JavaScript caller may pass
    expect(() => createDynamoDbStore({})).toThrow(/needs `client`/)
  })
})
