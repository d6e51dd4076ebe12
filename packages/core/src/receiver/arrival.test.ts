import { describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.js'
import { beginArrival } from './arrival.js'
import { createReceiver } from './create-receiver.js'

describe('beginArrival', () => {
  it('makes close() wait until the arrival ends, once however often it is ended', async () => {
    const receiver = createReceiver({ secret: 'whsec_arrival', logger: silentLogger })
    const done = beginArrival(receiver)
    expect(done).toBeTypeOf('function')
    let closed = false
    const closing = receiver.close({ timeoutMs: 5000 }).then((result) => {
      closed = true
      return result
    })
    // An idle receiver's close() has resolved by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    expect(closed).toBe(false)
    done?.()
    done?.()
    expect(await closing).toEqual({ drained: true, pending: 0 })
  })

  it('refuses to count once the receiver is closing, and counts nothing for a receiver it did not make', async () => {
    const receiver = createReceiver({ secret: 'whsec_arrival', logger: silentLogger })
    await receiver.close()
    expect(beginArrival(receiver)).toBeUndefined()
    const double = beginArrival({ handle: () => Promise.resolve() })
    expect(double).toBeTypeOf('function')
  })
})
