import { describe, expect, it } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import { type Logger, silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { createReceiver } from './create-receiver.js'
import type { SecretResolver } from './options.js'
import type { WebhookRequest } from './request.js'

const SECRET = 'whsec_late'
const VARIABLE = 'RINGHOOK_TEST_LATE_SECRET'

let sent = 0
async function delivery(): Promise<WebhookRequest> {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'user-late',
    app_id: 'app_late',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, rawBody: body }
}

function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string | undefined }> = []
  const write = (level: string) => (fields: Record<string, unknown>, message?: string) =>
    void lines.push({ level, fields, message })
  const logger: Logger = { ...silentLogger, warn: write('warn'), error: write('error') }
  return { logger, lines }
}

describe('a secret resolved when a delivery arrives', () => {
  it.each<[string, SecretResolver, RegExp]>([
    ['returns undefined', () => undefined, /secret resolver returned no secret.*RING_WEBHOOK_SECRET/],
    ['returns an empty string', () => '', /secret resolver returned no secret/],
    ['resolves to undefined', async () => undefined, /secret resolver returned no secret/],
    [
      'throws',
      () => {
        throw new Error('vault sealed')
      },
      /secret resolver threw \(Error: vault sealed\)/,
    ],
    ['rejects', () => Promise.reject(new Error('vault down')), /secret resolver threw \(Error: vault down\)/],
  ])(
    'that %s: 503 secret_unavailable with Retry-After, warned once for many deliveries',
    async (_name, secret, said) => {
      const { logger, lines } = recordingLogger()
      let handled = 0
      const receiver = createReceiver({ secret, logger }).on('gesture', () => void handled++)
      for (let i = 0; i < 25; i++) {
        const response = await receiver.handle(await delivery())
        expect(response.status).toBe(503)
        expect(response.headers['retry-after']).toBe('1')
        expect(JSON.parse(response.body)).toEqual({
          error: { code: 'secret_unavailable', message: 'The webhook secret could not be loaded; retry later.' },
        })
      }
      expect(handled).toBe(0)
      expect(lines).toEqual([
        { level: 'warn', fields: { code: 'secret_unavailable' }, message: expect.stringMatching(said) },
      ])
    },
  )

  it('lets a receiver be created before its variable is set, and reads it at delivery', async () => {
    delete process.env[VARIABLE]
    // What a framework that imports routes at build time does: no variable, no throw.
    const receiver = createReceiver({ secret: () => process.env[VARIABLE], logger: silentLogger })
    expect((await receiver.handle(await delivery())).status).toBe(503)
    process.env[VARIABLE] = SECRET
    try {
      expect((await receiver.handle(await delivery())).status).toBe(200)
    } finally {
      delete process.env[VARIABLE]
    }
  })

  it('still refuses a static secret that is missing, and names the lazy form', () => {
    expect(() => createReceiver({ secret: process.env[VARIABLE] as string })).toThrow(RinghookConfigError)
    expect(() => createReceiver({ secret: process.env[VARIABLE] as string })).toThrow(
      /secret: \(\) => process\.env\.RING_WEBHOOK_SECRET/,
    )
  })
})
