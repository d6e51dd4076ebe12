import { describe, expect, it } from 'vitest'
import { provablyNotSent } from './network.js'

const failure = (cause: unknown) => new TypeError('fetch failed', { cause })
const coded = (code: string) => Object.assign(new Error(code), { code })

describe('provablyNotSent', () => {
  it('is true for failures before a connection existed', () => {
    expect(provablyNotSent(failure(coded('ECONNREFUSED')))).toBe(true)
    expect(provablyNotSent(failure(coded('ENOTFOUND')))).toBe(true)
    expect(provablyNotSent(failure(new AggregateError([coded('ECONNREFUSED'), coded('EHOSTUNREACH')])))).toBe(true)
  })

  it('is false when the request may have reached the service, or nothing is known', () => {
    expect(provablyNotSent(failure(coded('ECONNRESET')))).toBe(false)
    expect(provablyNotSent(failure(coded('UND_ERR_SOCKET')))).toBe(false)
    expect(provablyNotSent(failure(new AggregateError([coded('ECONNREFUSED'), coded('ECONNRESET')])))).toBe(false)
    expect(provablyNotSent(new TypeError('Failed to fetch'))).toBe(false)
    expect(provablyNotSent('weird')).toBe(false)
  })
})
