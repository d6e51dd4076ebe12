import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore } from '../dedup/memory-store.js'
import { type Logger, silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { createReceiver } from './create-receiver.js'
import type { WebhookRequest } from './request.js'

const SECRET = 'whsec_hosts'
// Whatever markers the machine running the tests has, none of them is left to decide.
const MARKERS = ['AWS_LAMBDA_FUNCTION_NAME', 'VERCEL', 'NETLIFY']

let sent = 0
async function delivery(): Promise<WebhookRequest> {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'user-hosts',
    app_id: 'app_hosts',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, rawBody: body }
}

function recordingLogger() {
  const warnings: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = { ...silentLogger, warn: (fields, message) => void warnings.push({ fields, message }) }
  return { logger, warnings }
}

/** The host's marker set, the others cleared. */
function onHost(marker: string | undefined, value = '') {
  for (const name of MARKERS) vi.stubEnv(name, undefined)
  if (marker === 'navigator') vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' })
  else if (marker) vi.stubEnv(marker, value)
}

afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

describe('a receiver on the default memory store, on a host that spreads requests over instances', () => {
  it.each([
    ['AWS Lambda', 'AWS_LAMBDA_FUNCTION_NAME', 'ring-webhooks', /createDynamoDbStore \(@ringhook\/dynamodb\)/],
    ['Vercel', 'VERCEL', '1', /@ringhook\/redis.*@ringhook\/postgres/],
    ['Netlify', 'NETLIFY', 'true', /@ringhook\/redis.*@ringhook\/postgres/],
    ['Cloudflare Workers', 'navigator', '', /@ringhook\/cloudflare/],
  ])(
    'on %s, warns once, at its first delivery, and names the store to use there',
    async (host, marker, value, store) => {
      onHost(marker, value)
      const { logger, warnings } = recordingLogger()
      const receiver = createReceiver({ secret: SECRET, logger })
      expect(warnings).toEqual([])
      for (let i = 0; i < 3; i++) expect((await receiver.handle(await delivery())).status).toBe(200)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]?.fields).toEqual({ code: 'per_instance_dedup', host })
      expect(warnings[0]?.message).toMatch(/a retry that lands elsewhere is handled again/)
      expect(warnings[0]?.message).toMatch(store)
    },
  )

  it('says nothing when a store is given, even a memory one chosen on purpose', async () => {
    onHost('AWS_LAMBDA_FUNCTION_NAME', 'ring-webhooks')
    const { logger, warnings } = recordingLogger()
    const receiver = createReceiver({ secret: SECRET, logger, store: createMemoryStore() })
    await receiver.handle(await delivery())
    expect(warnings).toEqual([])
  })

  it('says nothing on a host without those markers: one long-lived process', async () => {
    onHost(undefined)
    const { logger, warnings } = recordingLogger()
    const receiver = createReceiver({ secret: SECRET, logger })
    await receiver.handle(await delivery())
    expect(warnings).toEqual([])
  })
})
