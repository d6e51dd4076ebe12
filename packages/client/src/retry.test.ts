import { describe, expect, it } from 'vitest'
import { NetworkError, RateLimitedError, TimeoutError } from './errors.js'
import { parseRetryAfter, resolveRetry, retryDelay } from './retry.js'

const request = { method: 'POST', path: '/v1/vibes/trigger' }
const tooMany = (retryAfterMs?: number) =>
  new RateLimitedError(
    { status: 429, code: 'rate_limited', message: '', requestId: undefined, request, body: '' },
    retryAfterMs,
  )
const retry = resolveRetry({ random: () => 0.5, baseDelayMs: 100 })

describe('retryDelay', () => {
  it('retries a 429 for reads and triggers alike', () => {
    expect(retryDelay(tooMany(1500), 1, retry, 'trigger')).toBe(1500)
    expect(retryDelay(tooMany(), 2, retry, 'read')).toBe(150)
  })

  it('retries a trigger after a network failure only when nothing was sent', () => {
    expect(retryDelay(new NetworkError('refused', request, true), 1, retry, 'trigger')).toBe(75)
    expect(retryDelay(new NetworkError('reset', request, false), 1, retry, 'trigger')).toBeUndefined()
    expect(retryDelay(new TimeoutError(request, 100), 1, retry, 'trigger')).toBeUndefined()
    expect(retryDelay(new TimeoutError(request, 100), 1, retry, 'read')).toBe(75)
  })

  it('stops at maxAttempts, and for anything else', () => {
    expect(retryDelay(tooMany(1), 3, retry, 'read')).toBeUndefined()
    expect(retryDelay(new Error('bug'), 1, retry, 'read')).toBeUndefined()
    expect(retryDelay(tooMany(1), 1, resolveRetry(false), 'read')).toBeUndefined()
  })
})

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, ignoring garbage', () => {
    const now = Date.parse('2024-05-01T10:00:00Z')
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('0.5', now)).toBe(500)
    expect(parseRetryAfter('Wed, 01 May 2024 10:00:09 GMT', now)).toBe(9000)
    expect(parseRetryAfter('Wed, 01 May 2024 09:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('-1', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })
})
