// How a backend puts its stores under the contracts: one call per interface a store implements, from
// the backend's own test file (`<backend>.test.ts`), so that each backend runs in a worker of its own.
import { describe } from 'vitest'
import { type CaptureSinkKind, captureSinkContract } from './capture-sink-contract.js'
import { type DedupStoreKind, dedupStoreContract } from './dedup-store-contract.js'
import { type LimitStoreKind, limitStoreContract } from './limit-store-contract.js'
import { type UserStoreKind, userStateStoreContract } from './user-state-store-contract.js'

/** Runs the dedup store contract on `kind`. */
export const dedupStore = (kind: DedupStoreKind) =>
  describe(`the ${kind.name} dedup store`, () => dedupStoreContract(kind))

/** Runs the users' state store contract on `kind`. */
export const userStateStore = (kind: UserStoreKind) =>
  describe(`the ${kind.name} users’ state store`, () => userStateStoreContract(kind))

/** Runs the limit store contract on `kind`. */
export const limitStore = (kind: LimitStoreKind) =>
  describe(`the ${kind.name} limit store`, () => limitStoreContract(kind))

/** Runs the capture sink contract on `kind`. */
export const captureSink = (kind: CaptureSinkKind) =>
  describe(`the ${kind.name} capture sink`, () => captureSinkContract(kind))
