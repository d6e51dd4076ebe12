import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb'
import { RinghookConfigError } from '@ringhook/core'
import { DynamoDbStoreError } from './errors.js'

/** The table every function of this package uses unless told otherwise. */
export const DEFAULT_TABLE = 'ringhook'

/**
 * The one table's layout, by attribute name. Deliveries and users live side by side, told apart by
 * their key's prefix (`ringhook:dedup:`, `ringhook:users:`): one table to create and grant access to.
 */
export const TABLE_SCHEMA = {
  /** The partition key (string): the store's prefix and the delivery key or user id. No sort key. */
  partitionKey: 'pk',
  /**
   * The TTL attribute (number, seconds since the epoch). DynamoDB deletes an expired item within a
   * day or two of that time, not at it: the stores read their own exact expiry (`until`, ms) and
   * treat an item past it as gone.
   */
  ttlAttribute: 'expiresAt',
  /** The index listing the users in one state, a page at a time. */
  stateIndex: 'ringhook-by-state',
  /** The index's partition key (string): the users' prefix and a state, e.g. `ringhook:users:active`. */
  stateKey: 'stateKey',
  /** The index's sort key (string): the user id (its SHA-256 when longer than 1 KiB). */
  userKey: 'userKey',
} as const

const NAME = /^[a-zA-Z0-9_.-]{3,255}$/

/** Checks a table name as DynamoDB would, but at start, with the option named. */
export function tableName(name: string | undefined, caller: string): string {
  const table = name ?? DEFAULT_TABLE
  if (typeof table !== 'string' || !NAME.test(table)) {
    throw new RinghookConfigError(
      `${caller}: \`table\` must be 3 to 255 letters, digits, '_', '-' or '.', got ${JSON.stringify(table)}`,
    )
  }
  return table
}

/**
 * The `CreateTable` request for the table: on-demand billing, the key and the state index. Give it to
 * the SDK, or copy its shape into CloudFormation, CDK or Terraform (and enable TTL on `expiresAt`).
 *
 * @example
 * import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
 * await new DynamoDBClient({}).send(new CreateTableCommand(tableDefinition('ringhook')))
 */
export function tableDefinition(table: string = DEFAULT_TABLE): CreateTableCommandInput {
  const { partitionKey, stateIndex, stateKey, userKey } = TABLE_SCHEMA
  return {
    TableName: tableName(table, 'tableDefinition'),
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: partitionKey, AttributeType: 'S' },
      { AttributeName: stateKey, AttributeType: 'S' },
      { AttributeName: userKey, AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: partitionKey, KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      {
        IndexName: stateIndex,
        KeySchema: [
          { AttributeName: stateKey, KeyType: 'HASH' },
          { AttributeName: userKey, KeyType: 'RANGE' },
        ],
        // What a page of users needs, and nothing of the deliveries (they have no `stateKey`).
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['user', 'at', 'cause', 'coarse', 'uncertain'] },
      },
    ],
  }
}

/** What {@link createTable} did. */
export interface CreateTableResult {
  /** `false` when the table was there already. */
  created: boolean
  /** Whether TTL is enabled on `expiresAt`; `false` on a local engine that has no TTL (dynalite). */
  ttl: boolean
}

/**
 * Creates the table (see {@link tableDefinition}) unless it exists, waits until it is active and
 * enables TTL on `expiresAt`. Safe to run again. For a deploy script or a one-off command, not for
 * every cold start: creating a table takes seconds and needs `dynamodb:CreateTable`.
 *
 * @example
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
 * await createTable(new DynamoDBClient({}), { table: 'ringhook' })
 */
export async function createTable(
  client: DynamoDBClient,
  options: { table?: string; timeoutMs?: number } = {},
): Promise<CreateTableResult> {
  const table = tableName(options.table, 'createTable')
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  let created = true
  try {
    await client.send(new CreateTableCommand(tableDefinition(table)))
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw wrap(error)
    created = false
  }
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table })).catch((error) => {
      throw wrap(error)
    })
    const indexes = Table?.GlobalSecondaryIndexes ?? []
    if (Table?.TableStatus === 'ACTIVE' && indexes.every((index) => index.IndexStatus === 'ACTIVE')) break
    if (Date.now() > deadline) throw new DynamoDbStoreError('create-table', `${table} is not active yet`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
      }),
    )
    return { created, ttl: true }
  } catch (error) {
    if (!(error instanceof Error)) throw wrap(error)
    // Enabled already, or an engine without TTL (dynalite): the stores never rely on its deletion.
    if (/already enabled/i.test(error.message)) return { created, ttl: true }
    if (error.name === 'UnknownOperationException') return { created, ttl: false }
    throw wrap(error)
  }
}

const wrap = (error: unknown) =>
  new DynamoDbStoreError('create-table', error instanceof Error ? `${error.name}: ${error.message}` : String(error), {
    cause: error,
  })
