import { describe, expect, it } from 'vitest'

// A refused delivery's line in the live log of `ringhook simulate` names the receiver's error and its fix.
describe('the simulator live log', () => {
  it('puts the explanation in the simulator live log line of a refused delivery', async () => {
    const { formatEntry } = await import('../src/cli/format.js')
    const line = formatEntry({
      type: 'delivery.attempt',
      at: '2026-11-23T10:00:00.000Z',
      seq: 1,
      delivery_id: 'd1',
      event: 'app.installed',
      attempt: 1,
      outcome: 'http_error',
      status: 500,
      latency_ms: 3,
      reply: JSON.stringify({ error: { code: 'body_already_parsed' } }),
      error: null,
      next_retry_in_ms: 1000,
    } as Parameters<typeof formatEntry>[0])
    expect(line).toContain('→ 500 in 3 ms, retry in 1000 ms')
    expect(line).toContain('body_already_parsed: a body parser consumed the request')
  })
})
