import {
  type AttributeValue,
  GetItemCommand,
  PutItemCommand,
  type PutItemCommandInput,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb'
import {
  type Cause,
  decide,
  type Stamp,
  type StateCounts,
  type StoreResult,
  statusOf,
  type UserStatus,
  type UserStore,
} from '@ringhook/users/store'
import { DynamoDbStoreError, isConditionFailed } from './errors.js'
import { type DynamoDbOptions, resolveOptions } from './options.js'
import { PARTITION_KEY_BYTES, SORT_KEY_BYTES, storedKey } from './stored-key.js'
import { TABLE_SCHEMA } from './table.js'
import { withTimeout } from './timeout.js'

/** Where {@link dynamoDbUserStore} keeps states. */
export interface DynamoDbUserStoreOptions extends DynamoDbOptions {
  /** Put before every user id (and every state in the index); one per app. Default `'ringhook:users:'`. */
  prefix?: string
}

/** What the users' state store puts before every user id unless told otherwise. */
export const DEFAULT_USERS_PREFIX = 'ringhook:users:'

// A compare-and-set refused because another environment wrote the user meanwhile is read and tried
// again; this many refusals in a row mean far more contention on one user than its events make.
const APPLY_ROUNDS = 25

/**
 * Users' states on DynamoDB, shared by every execution environment: each event is a consistent read
 * of the user's stamp, the ordering rule (`decide` from `@ringhook/users`), and a put conditional on
 * the stamp read being still there, tried again when another environment wrote first. So any number
 * of environments apply one user's events in any order and interleaving and agree. Pages and counts
 * read the state index, which DynamoDB updates a moment after each write.
 *
 * @example
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
 * import { createUserStates } from '@ringhook/users'
 * const client = new DynamoDBClient({})
 * const users = createUserStates({ store: dynamoDbUserStore({ client, table: process.env.DYNAMODB_TABLE }) })
 */
export function dynamoDbUserStore(options: DynamoDbUserStoreOptions): UserStore {
  const { client, table, prefix, timeoutMs } = resolveOptions(options, 'dynamoDbUserStore', DEFAULT_USERS_PREFIX)
  // Users and their states share the prefix: `<prefix>user:<id>` items, `<prefix>state:<status>` index keys.
  const keyOf = (userAppId: string) => ({
    [TABLE_SCHEMA.partitionKey]: { S: storedKey(`${prefix}user:`, userAppId, PARTITION_KEY_BYTES) },
  })
  const stateKey = (status: UserStatus) => `${prefix}state:${status}`
  const read = (userAppId: string) =>
    client
      .send(new GetItemCommand({ TableName: table, Key: keyOf(userAppId), ConsistentRead: true }))
      .then(({ Item }) => (Item ? toStamp(Item) : undefined))

  const compareAndSet = async (userAppId: string, seen: Stamp, marginMs: number): Promise<StoreResult> => {
    for (let round = 0; round < APPLY_ROUNDS; round++) {
      const before = await read(userAppId)
      const { verdict, next } = decide(before, seen, marginMs)
      if (before && sameStamp(before, next)) return { verdict, before, after: next }
      try {
        await client.send(
          new PutItemCommand({
            TableName: table,
            Item: {
              ...keyOf(userAppId),
              user: { S: userAppId },
              ...stampItem(next),
              [TABLE_SCHEMA.stateKey]: { S: stateKey(statusOf(next.cause)) },
              [TABLE_SCHEMA.userKey]: { S: storedKey('', userAppId, SORT_KEY_BYTES) },
            },
            ...unchangedSince(before),
          }),
        )
        return { verdict, before, after: next }
      } catch (error) {
        if (!isConditionFailed(error)) throw error
      }
    }
    throw new DynamoDbStoreError('apply', `user ${JSON.stringify(userAppId)} changed under ${APPLY_ROUNDS} writes`)
  }

  const query = (input: Omit<QueryCommandInput, 'TableName' | 'IndexName'>) =>
    withTimeout(
      client.send(new QueryCommand({ TableName: table, IndexName: TABLE_SCHEMA.stateIndex, ...input })),
      timeoutMs,
      'read',
    )

  const countIn = async (status: UserStatus): Promise<number> => {
    let total = 0
    let start: Record<string, AttributeValue> | undefined
    do {
      const page = await query({ ...inState(stateKey(status)), Select: 'COUNT', ExclusiveStartKey: start })
      total += page.Count ?? 0
      start = page.LastEvaluatedKey
    } while (start)
    return total
  }

  return {
    apply: (userAppId, seen, marginMs) => withTimeout(compareAndSet(userAppId, seen, marginMs), timeoutMs, 'apply'),
    get: (userAppId) => withTimeout(read(userAppId), timeoutMs, 'read'),
    async *pages(status, pageSize) {
      let start: Record<string, AttributeValue> | undefined
      do {
        const page = await query({ ...inState(stateKey(status)), Limit: pageSize, ExclusiveStartKey: start })
        start = page.LastEvaluatedKey
        const users = (page.Items ?? []).map((item) => [item.user?.S ?? '', toStamp(item)] as const)
        if (users.length > 0) yield users
      } while (start)
    },
    async count(): Promise<StateCounts> {
      const [active, passive, inactive] = await Promise.all([
        countIn('active'),
        countIn('passive'),
        countIn('inactive'),
      ])
      return { active, passive, inactive }
    },
  }
}

const inState = (key: string) => ({
  KeyConditionExpression: '#state = :state',
  ExpressionAttributeNames: { '#state': TABLE_SCHEMA.stateKey },
  ExpressionAttributeValues: { ':state': { S: key } },
})

// A stamp as four attributes, readable in the console: the time (ms), what set the state, and flags.
const stampItem = (stamp: Stamp): Record<string, AttributeValue> => ({
  at: { N: String(stamp.at) },
  cause: { N: String(stamp.cause) },
  coarse: { BOOL: stamp.coarse },
  uncertain: { BOOL: stamp.uncertain },
})

function toStamp(item: Record<string, AttributeValue>): Stamp {
  const at = Number(item.at?.N)
  const cause = Number(item.cause?.N)
  if (!Number.isFinite(at) || !Number.isInteger(cause) || cause < 0 || cause > 8) {
    throw new DynamoDbStoreError('read', `unexpected item for a user: ${JSON.stringify(Object.keys(item))}`)
  }
  return { at, cause: cause as Cause, coarse: item.coarse?.BOOL === true, uncertain: item.uncertain?.BOOL === true }
}

const sameStamp = (a: Stamp, b: Stamp) =>
  a.at === b.at && a.cause === b.cause && a.coarse === b.coarse && a.uncertain === b.uncertain

/** The put's condition: the user is still as read (absent, or with the very stamp read). */
function unchangedSince(
  before: Stamp | undefined,
): Pick<PutItemCommandInput, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  if (before === undefined) {
    return {
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': TABLE_SCHEMA.partitionKey },
    }
  }
  const values = stampItem(before)
  return {
    ConditionExpression: '#at = :at AND #cause = :cause AND #coarse = :coarse AND #uncertain = :uncertain',
    ExpressionAttributeNames: { '#at': 'at', '#cause': 'cause', '#coarse': 'coarse', '#uncertain': 'uncertain' },
    ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value])),
  }
}
