import { signEvent } from './sign.js'

/**
 * The part of a supertest (or superagent) request that {@link signed} uses; supertest's `Test`
 * fits it, so this package needs no import of supertest.
 */
export interface SignableRequest {
  /** Sets request headers. */
  set(fields: Record<string, string>): this
  /** Sends this text as the body. */
  send(body: string): this
}

/**
 * Signs a webhook as the service does and returns a supertest plugin that sets the three headers and
 * sends the exact signed bytes: one line for a test that posts a delivery to an app.
 *
 * @param payload - an event (serialised with `JSON.stringify`) or the exact JSON text to send
 * @param secret - the app's webhook secret
 * @param options - `timestamp`: Unix seconds or a Date to sign with instead of now
 *
 * @example
 * import express from 'express'
 * import request from 'supertest'
 *
 * const app = express()
 * const response = await request(app).post('/webhooks').use(await signed(events.gesture(), secret))
 * expect(response.status).toBe(200)
 */
export async function signed(
  payload: unknown,
  secret: string,
  options: { timestamp?: number | Date } = {},
): Promise<<R extends SignableRequest>(request: R) => R> {
  const { body, headers } = await signEvent({ secret, payload, ...options })
  return (request) => request.set(headers).send(body)
}
