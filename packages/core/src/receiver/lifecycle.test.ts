import { describe, expect, it } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { Lifecycle } from './lifecycle.js'

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value))

describe('Lifecycle', () => {
  it('is open until close(), which resolves at once when nothing runs', async () => {
    const lifecycle = new Lifecycle()
    expect(lifecycle.closing).toBe(false)
    expect(await lifecycle.close(silentLogger)).toEqual({ drained: true, pending: 0 })
    expect(lifecycle.closing).toBe(true)
  })

  it('waits for tracked work, including work started while waiting', async () => {
    const lifecycle = new Lifecycle()
    const finished: string[] = []
    lifecycle.track(later(30, 'a').then((v) => void finished.push(v)))
    lifecycle.track(later(60, 'b').then((v) => void finished.push(v)))
    const closing = lifecycle.close(silentLogger, { timeoutMs: 1000 })
    lifecycle.track(later(90, 'c').then((v) => void finished.push(v)))
    expect(await closing).toEqual({ drained: true, pending: 0 })
    expect(finished).toEqual(['a', 'b', 'c'])
  })

  it('counts rejected work as finished, without an unhandled rejection', async () => {
    const lifecycle = new Lifecycle()
    lifecycle.track(later(10, undefined).then(() => Promise.reject(new Error('late failure'))))
    expect(await lifecycle.close(silentLogger, { timeoutMs: 1000 })).toEqual({ drained: true, pending: 0 })
  })

  it('gives up at the timeout and reports what still runs', async () => {
    const lifecycle = new Lifecycle()
    lifecycle.track(new Promise(() => {}))
    expect(await lifecycle.close(silentLogger, { timeoutMs: 20 })).toEqual({ drained: false, pending: 1 })
  })

  it('refuses a timeout that is not a finite number >= 0', async () => {
    await expect(new Lifecycle().close(silentLogger, { timeoutMs: Number.NaN })).rejects.toThrow(RinghookConfigError)
  })
})
