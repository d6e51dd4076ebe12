import { randomUUID } from 'node:crypto'
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb'
import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import { DynamoDbStoreError, isConditionFailed } from './errors.js'
import { type DynamoDbOptions, resolveOptions } from './options.js'
import { PARTITION_KEY_BYTES, storedKey } from './stored-key.js'
import { TABLE_SCHEMA } from './table.js'
import { withTimeout } from './timeout.js'

/** Which table the dedup store uses, under which prefix, and how long it waits. */
export interface DynamoDbStoreOptions extends DynamoDbOptions {
  /** Put before every delivery key. Default `'ringhook:dedup:'`. */
  prefix?: string
}

/** What the dedup store puts before every delivery key unless told otherwise. */
export const DEFAULT_DEDUP_PREFIX = 'ringhook:dedup:'

/** The DynamoDB store: every operation is a round trip, so each answers with a promise. */
export interface DynamoDbStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): Promise<ClaimResult>
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void>
  release(key: string, token: string): Promise<void>
}

// Each delivery is one item: `token` and `until` (ms) while in flight, plus `status` and `body`
// once completed, and `expiresAt` (s) for DynamoDB's TTL. An item past `until` is gone, whether or
// not DynamoDB has deleted it yet.

/**
 * A dedup store on DynamoDB, shared by every execution environment of a Lambda function: a claim is
 * one conditional put (the item is absent, or past its time), so of any number of environments
 * claiming a delivery at once, one wins. Completing and releasing are conditional on the claim's token.
 *
 * @example
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
 * const client = new DynamoDBClient({})
 * createReceiver({ secret, store: createDynamoDbStore({ client, table: process.env.DYNAMODB_TABLE }) })
 */
export function createDynamoDbStore(options: DynamoDbStoreOptions): DynamoDbStore {
  const { client, table, prefix, timeoutMs } = resolveOptions(options, 'createDynamoDbStore', DEFAULT_DEDUP_PREFIX)
  const keyOf = (key: string): Record<string, AttributeValue> => ({
    [TABLE_SCHEMA.partitionKey]: { S: storedKey(prefix, key, PARTITION_KEY_BYTES) },
  })

  const release = async (key: string, token: string): Promise<void> => {
    const deleting = client.send(
      new DeleteItemCommand({
        TableName: table,
        Key: keyOf(key),
        ConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': { S: token } },
      }),
    )
    await withTimeout(ignoreRefusal(deleting), timeoutMs, 'release')
  }

  return {
    async claim(key, inFlightTtlMs) {
      const token = randomUUID()
      const pending = claimItem(client, table, keyOf(key), token, inFlightTtlMs)
      // A claim that timed out may still be written later. Left alone it would turn the service's
      // retries away for its whole ttl: it is released as soon as it lands.
      return withTimeout(pending, timeoutMs, 'claim', (late) => {
        if (late.state === 'claimed') release(key, token).catch(() => {})
      })
    },
    async complete(key, token, reply, ttlMs) {
      const now = Date.now()
      const until = now + Math.max(1, Math.ceil(ttlMs))
      const updating = client.send(
        new UpdateItemCommand({
          TableName: table,
          Key: keyOf(key),
          UpdateExpression: 'SET #status = :status, #body = :body, #until = :until, #expiresAt = :expiresAt',
          // Only while this token owns a claim that has not lapsed: a lapsed one may be another's soon.
          ConditionExpression: '#token = :token AND #until > :now',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#body': 'body',
            '#until': 'until',
            '#token': 'token',
            '#expiresAt': TABLE_SCHEMA.ttlAttribute,
          },
          ExpressionAttributeValues: {
            ':status': { N: String(reply.status) },
            ':body': { S: reply.body },
            ':until': { N: String(until) },
            ':expiresAt': { N: String(Math.ceil(until / 1000)) },
            ':token': { S: token },
            ':now': { N: String(now) },
          },
        }),
      )
      await withTimeout(ignoreRefusal(updating), timeoutMs, 'complete')
    },
    release,
  }
}

/** A write whose condition did not hold did nothing, which is what was asked. */
const ignoreRefusal = (write: Promise<unknown>): Promise<void> =>
  write.then(
    () => undefined,
    (error: unknown) => {
      if (!isConditionFailed(error)) throw error
    },
  )

// A put refused, then a read finding the item gone or lapsed: it was deleted or lapsed in between,
// and the put is tried again. More rounds than this mean something else is wrong.
const CLAIM_ROUNDS = 5

async function claimItem(
  client: DynamoDBClient,
  table: string,
  key: Record<string, AttributeValue>,
  token: string,
  inFlightTtlMs: number,
): Promise<ClaimResult> {
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const now = Date.now()
    const until = now + Math.max(1, Math.ceil(inFlightTtlMs))
    try {
      await client.send(
        new PutItemCommand({
          TableName: table,
          Item: {
            ...key,
            token: { S: token },
            until: { N: String(until) },
            [TABLE_SCHEMA.ttlAttribute]: { N: String(Math.ceil(until / 1000)) },
          },
          // Absent, or lapsed (DynamoDB's TTL deletes lazily: an item can outlive its time by days).
          ConditionExpression: 'attribute_not_exists(#pk) OR #until <= :now',
          ExpressionAttributeNames: { '#pk': TABLE_SCHEMA.partitionKey, '#until': 'until' },
          ExpressionAttributeValues: { ':now': { N: String(now) } },
        }),
      )
      return { state: 'claimed', token }
    } catch (error) {
      if (!isConditionFailed(error)) throw error
    }
    const { Item } = await client.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))
    const held = Item ? toClaim(Item) : undefined
    if (held) return held
  }
  throw new DynamoDbStoreError('claim', `the item changed under ${CLAIM_ROUNDS} claims in a row`)
}

/** What a live item says to a claim; `undefined` when it has lapsed. */
function toClaim(item: Record<string, AttributeValue>): ClaimResult | undefined {
  const until = Number(item.until?.N)
  if (!(until > Date.now())) return undefined
  const status = Number(item.status?.N)
  const body = item.body?.S
  if (item.status === undefined) return { state: 'in_flight' }
  if (Number.isInteger(status) && typeof body === 'string') return { state: 'completed', reply: { status, body } }
  throw new DynamoDbStoreError('claim', `unexpected item for a delivery: ${JSON.stringify(Object.keys(item))}`)
}
