#!/usr/bin/env node
// `npx ringhook-dynamodb-table [--table NAME] [--endpoint URL]`: creates the stores' table with the
// AWS credentials and region of the environment (AWS_PROFILE, AWS_REGION, ...). Defaults from
// DYNAMODB_TABLE and DYNAMODB_ENDPOINT, as examples/aws-lambda reads them.
import { parseArgs } from 'node:util'
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { createTable, DEFAULT_TABLE } from './table.js'

const { values } = parseArgs({
  options: { table: { type: 'string' }, endpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
})
if (values.help) {
  console.log('usage: ringhook-dynamodb-table [--table NAME] [--endpoint URL]')
  process.exit(0)
}
const table = values.table ?? process.env.DYNAMODB_TABLE ?? DEFAULT_TABLE
const endpoint = values.endpoint ?? process.env.DYNAMODB_ENDPOINT
const client = new DynamoDBClient(endpoint ? { endpoint } : {})
try {
  const { created, ttl } = await createTable(client, { table })
  console.log(
    `${table}: ${created ? 'created' : 'already there'}, ${ttl ? 'TTL on expiresAt' : 'no TTL on this engine'}`,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  client.destroy()
}
