// A captured record larger than the target takes (100 MiB) is answered 413 by the adapters' servers,
// and replay reports that answer, not a failed fetch: the upload may be cut by the server once it
// has answered, but the answer is what the user needs to see. Four adapters: 100 MiB each is heavy.
import { replay } from '@ringhook/capture'
import { createReceiver, silentLogger } from '@ringhook/core'
import type { CapturedDelivery } from '@ringhook/core/capture'
import { describe, expect, it } from 'vitest'
import { adapters } from '../conformance/adapters.js'

const secret = 'whsec_too_large'
const body = JSON.stringify({
  event: 'gesture',
  gesture_type: 'tap',
  user_app_id: 'u_big',
  app_id: 'app_big',
  timestamp: new Date().toISOString(),
  data: { pad: 'x'.repeat(100 * 1024 * 1024) },
})
const record: CapturedDelivery = {
  v: 1,
  id: 'rec_big',
  receivedAt: new Date().toISOString(),
  event: 'gesture',
  request: {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    encoding: 'utf8',
    bytes: body.length,
  },
  answer: { status: 200, headers: {}, body: '{}' },
  outcome: 'accepted',
  authentic: true,
}

const chosen = adapters.filter((adapter) =>
  ['node', 'express 5', 'hono (node-server)', 'fastify 5'].includes(adapter.name),
)

describe.each(chosen)('replaying 100 MiB to $name', (adapter) => {
  it('reports its 413', async () => {
    expect(chosen).toHaveLength(4)
    const receiver = createReceiver({ secret, logger: silentLogger })
    const mounted = await adapter.mount(receiver)
    try {
      const summary = await replay([record], { url: mounted.url, secret })
      expect(summary.results[0]?.error).toBeUndefined()
      expect(summary.results[0]?.answer?.status).toBe(413)
    } finally {
      await mounted.close()
    }
  }, 60_000)
})
