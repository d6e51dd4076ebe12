import { describe, expect, it } from 'vitest'
import { type Gate, gate } from '../../../../test/support/gate.js'
import { RinghookConfigError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { Lifecycle } from './lifecycle.js'

/** Two turns of the event loop: a close() that did not wait for its work has resolved by then. */
async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setImmediate(resolve))
}

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
    const [a, b, c] = [gate(), gate(), gate()]
    const work = (held: Gate, name: string) => held.promise.then(() => void finished.push(name))
    lifecycle.track(work(a, 'a'))
    lifecycle.track(work(b, 'b'))
    // What had finished when close() resolved: each piece of work is let go after close() began.
    const closing = lifecycle
      .close(silentLogger, { timeoutMs: 5000 })
      .then((result) => ({ result, finished: [...finished] }))
    a.open()
    await settled()
    lifecycle.track(work(c, 'c'))
    b.open()
    await settled()
    c.open()
    expect(await closing).toEqual({ result: { drained: true, pending: 0 }, finished: ['a', 'b', 'c'] })
  })

  it('counts rejected work as finished, without an unhandled rejection', async () => {
    const lifecycle = new Lifecycle()
    lifecycle.track(Promise.resolve().then(() => Promise.reject(new Error('late failure'))))
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
