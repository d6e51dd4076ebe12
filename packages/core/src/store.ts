/**
 * For dedup store authors, and apps that size the default one: the `DedupStore` contract a store
 * implements, the key the receiver claims, and the in-process memory store (`createMemoryStore`);
 * and the vibe budget a receiver's gesture replies spend (option `vibeBudget`).
 *
 * @packageDocumentation
 */
export { type DedupKeyFn, dedupKeyFor, defaultDedupKey, MAX_DEDUP_KEY_LENGTH } from './dedup/key.js'
export {
  createMemoryStore,
  DEFAULT_MEMORY_STORE_BYTES,
  type MemoryStore,
  type MemoryStoreOptions,
} from './dedup/memory-store.js'
export type { ClaimResult, DedupStore, StoredReply } from './dedup/store.js'
export type {
  ReplyLimitOptions,
  ReplyLimitStats,
  VibeBudget,
  VibeBudgetOptions,
  VibeBudgetStats,
  VibeBudgetWhenSpent,
  WhenVibesSpent,
} from './receiver/vibe-budget.js'
