// Timestamps the kit cannot keep exactly (a user's state orders events by a time packed in a double,
// exact up to year 6429; Postgres keeps nothing before 4713 BC) are refused at the receiver with
// invalid_payload, saying why, rather than changing a state silently or failing every retry.
import { describe, expect, it } from 'vitest'
import { createReceiver, silentLogger } from '../index.js'
import { signWebhook } from '../signature.js'
import { isTimestamp, TIMESTAMP_RANGE } from './refinements.js'

const secret = 'whsec_timestamp_range'

async function deliver(timestamp: string) {
  const receiver = createReceiver({ secret, logger: silentLogger })
  const handled: string[] = []
  receiver.on('app.activated', (event) => void handled.push(event.timestamp))
  const body = JSON.stringify({ event: 'app.activated', user_app_id: 'u_1', app_id: 'app_1', timestamp, data: {} })
  const { headers } = await signWebhook({ secret, body })
  const answer = await receiver.handle({ method: 'POST', headers, rawBody: body })
  await receiver.close()
  return { status: answer.status, body: String(answer.body), handled }
}

describe('a payload timestamp', () => {
  it.each([
    '9999-12-31T23:59:59.998Z',
    '6429-01-01T00:00:00Z',
    '+100000-01-01T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
  ])('%s is refused: invalid_payload, saying the range', async (timestamp) => {
    const answer = await deliver(timestamp)
    expect(answer.status).toBe(400)
    expect(answer.body).toContain('invalid_payload')
    expect(answer.handled).toEqual([])
  })

  it.each([
    '2026-11-28T10:00:00Z',
    '6428-12-31T23:59:59.999Z',
    '6428-12-31T23:00:00-05:00',
    '0000-01-01T00:00:00Z',
    'Sat, 28 Nov 2026 10:00:00 GMT',
  ])('%s is accepted', async (timestamp) => {
    const answer = await deliver(timestamp)
    expect(answer.status).toBe(200)
    expect(answer.handled).toEqual([timestamp])
  })

  it('names a range every accepted time of which a double packs exactly', () => {
    expect(TIMESTAMP_RANGE.max).toBe(Date.parse('6429-01-01T00:00:00Z') - 1)
    expect(Date.parse('6428-12-31T23:59:59-23:59') * 64 + 63).toBeLessThan(2 ** 53)
    expect(isTimestamp('6428-12-31T23:59:59.999Z')).toBe(true)
    expect(isTimestamp('6429-01-01T00:00:00.000Z')).toBe(false)
  })
})
