// Real signed deliveries through a receiver that captures them, for the tests of each capture
// sink's reader: what the reader gives back must equal what the capture handed the sink.
import { createReceiver, silentLogger, vibe, withExtras } from '@ringhook/core'
import { type CapturedDelivery, type CaptureSink, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { expect } from 'vitest'

/** A gesture of `user` to app `appId`; `data.fail` makes the handler below throw. */
export const gesture = (appId: string, user: string, data: Record<string, unknown> = {}): string =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: user,
    app_id: appId,
    timestamp: new Date().toISOString(),
    data,
  })

/** A notification answer of `user` to app `appId`. */
export const responded = (appId: string, user: string): string =>
  JSON.stringify({
    event: 'notification.responded',
    user_app_id: user,
    app_id: appId,
    timestamp: new Date().toISOString(),
    data: { event_id: `evt_${user}`, response: 'yes' },
  })

/**
 * Sends five deliveries through a receiver capturing to `sink`: accepted, a duplicate, a handler
 * failure, a bad signature, a notification answer. Returns what the capture handed the sink, in order.
 */
export async function captureTraffic(sink: CaptureSink, secret: string, appId: string): Promise<CapturedDelivery[]> {
  const captured: CapturedDelivery[] = []
  const tee: CaptureSink = {
    write: async (records) => {
      captured.push(...records)
      await sink.write(records)
    },
  }
  const capture = createCapture({ sink: tee, logger: silentLogger })
  const receiver = createReceiver({ secret, logger: silentLogger, capture })
  receiver.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('handler broke')
    return vibe('tap')
  })
  receiver.on('notification.responded', () => {})
  const first = gesture(appId, 'u_1')
  const traffic: [string, string][] = [
    [first, secret],
    [first, secret], // a retry: answered as a duplicate
    [gesture(appId, 'u_2', { fail: true }), secret],
    [gesture(appId, 'u_3'), 'whsec_wrong'],
    [responded(appId, 'u_4'), secret],
  ]
  for (const [body, key] of traffic) {
    const { headers } = await signWebhook({ secret: key, body })
    await receiver.handle({ method: 'POST', headers, rawBody: body })
  }
  await capture.flush()
  expect(capture.stats()).toMatchObject({ written: 5, failed: 0 })
  await receiver.close()
  await capture.close()
  return captured
}
