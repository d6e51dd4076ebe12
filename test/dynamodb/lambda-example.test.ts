// examples/aws-lambda as its README runs it with DYNAMODB_TABLE and DYNAMODB_ENDPOINT, on dynalite
// started here: a gesture answered, the runner stopped and started again (a new execution
// environment), and the service's retry of that gesture, freshly signed, answered as the duplicate.
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, listeningPort, type Started, startExample, stop } from '../examples/harness.js'
import { assertBuilt } from '../runtimes/built.js'
import { type LocalDynamo, startDynalite } from './support/dynalite.js'

assertBuilt('core', 'node', 'aws-lambda', 'users', 'dynamodb')

const SECRET = 'whsec_lambda_dynamodb'
let dynamo: LocalDynamo
const started: Started[] = []

beforeAll(async () => {
  dynamo = await startDynalite()
})
afterAll(async () => {
  for (const run of started) cleanUp(run)
  await dynamo?.close()
})

async function startRunner() {
  const run = startExample('aws-lambda', {
    PORT: '0',
    RING_WEBHOOK_SECRET: SECRET,
    DYNAMODB_TABLE: dynamo.table,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
  })
  started.push(run)
  return { run, url: `http://127.0.0.1:${await listeningPort(run)}/webhooks` }
}

/** Sends as the service does: signed anew at each attempt, tried again after a 503 or 409 (a slow store on a loaded machine). */
async function send(url: string, body: string) {
  for (let attempt = 1; ; attempt++) {
    const { headers } = await signWebhook({ secret: SECRET, body })
    const response = await fetch(url, { method: 'POST', headers, body })
    const answer = {
      status: response.status,
      duplicate: response.headers.get('x-ringhook-duplicate'),
      body: await response.text(),
    }
    if ((answer.status !== 503 && answer.status !== 409) || attempt === 5) return answer
    // The service's backoff, shortened.
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
  }
}

describe('examples/aws-lambda on DynamoDB', () => {
  it('answers a retry after a restart as the duplicate, with the same vibe', async () => {
    const gesture = JSON.stringify({
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: crypto.randomUUID(),
      app_id: 'app_demo',
      timestamp: new Date().toISOString(),
      data: {},
    })
    const first = await startRunner()
    const original = await send(first.url, gesture)
    expect(original).toMatchObject({ status: 200, duplicate: null })
    expect(JSON.parse(original.body)).toMatchObject({ vibe: { message: 'Got your double_tap' } })
    expect(await stop(first.run)).toBe(0)

    const second = await startRunner()
    expect(await send(second.url, gesture)).toEqual({ ...original, duplicate: 'true' })
    expect(await stop(second.run)).toBe(0)
  }, 60_000)
})
