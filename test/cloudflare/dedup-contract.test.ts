// The dedup store contract, run against the Durable Object store in workerd: two isolates of one
// Worker sharing the objects, as two instances share Redis.
import { afterAll, beforeAll, describe } from 'vitest'
import { storeContract } from '../store-contract/contract.js'
import { dedupStore } from './support/stores.js'
import { startWorkerd, type Workerd } from './support/workerd.js'

let workerd: Workerd | undefined
beforeAll(async () => {
  workerd = await startWorkerd()
})
afterAll(() => workerd?.dispose())

const running = (): Workerd => {
  if (!workerd) throw new Error('workerd did not start')
  return workerd
}

describe('Durable Object store (workerd)', () => {
  storeContract({ name: 'durable object', pair: () => [dedupStore(running(), 'a'), dedupStore(running(), 'b')] })
})
