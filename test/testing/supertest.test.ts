import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/express'
import { events, signed } from '@ringhook/testing'
import express from 'express'
import request from 'supertest'
import { describe, expect, it } from 'vitest'

const secret = 'whsec_supertest'

/** An Express 5 app as the README sets it up: ringhook mounted before the JSON parser. */
function app() {
  const receiver = createReceiver({ secret, logger: silentLogger })
  const handled: string[] = []
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  const server = express()
  server.post('/webhooks', ringhook(receiver))
  server.use(express.json())
  return { server, handled }
}

describe('signed() with supertest', () => {
  it('sends a signed delivery in one line, and the app handles it', async () => {
    const { server, handled } = app()
    const response = await request(server)
      .post('/webhooks')
      .use(await signed(events.gesture({ gesture_type: 'double_tap' }), secret))
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } })
    expect(handled).toEqual(['double_tap'])
  })

  it('sends the exact bytes it signed, so whitespace in a text payload still verifies', async () => {
    const { server, handled } = app()
    const text = JSON.stringify(events.gesture({ gesture_type: 'swipe_up' }), null, 2)
    const response = await request(server)
      .post('/webhooks')
      .use(await signed(text, secret))
    expect(response.status).toBe(200)
    expect(handled).toEqual(['swipe_up'])
  })

  it('is refused with another secret or an old timestamp, and the handler does not run', async () => {
    const { server, handled } = app()
    const wrong = await request(server)
      .post('/webhooks')
      .use(await signed(events.gesture(), 'whsec_other'))
    expect(wrong.status).toBe(401)
    const stale = new Date(Date.now() - 10 * 60_000)
    const old = await request(server)
      .post('/webhooks')
      .use(await signed(events.gesture(), secret, { timestamp: stale }))
    expect(old.status).toBe(401)
    expect(handled).toEqual([])
  })
})
