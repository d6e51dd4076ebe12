import type { StoredReply } from '@ringhook/core/store'
import type { PooledClient } from './client.js'
import { withTimeout } from './timeout.js'

/** A claim this process holds: its transaction, open on its own client until committed or rolled back. */
export interface Held<Client> {
  readonly token: string
  readonly client: Client
  readonly onError: (error: Error) => void
  /** open: waiting for a handler or the receiver; busy: a handler writes in it; committed: by a handler. */
  state: 'open' | 'busy' | 'committed'
  /** The claim's in-flight ttl: how long copies wait for the reply after a handler's commit. */
  readonly inFlightTtlMs: number
  /** The reply a handler committed, and whether the receiver's own is still due. */
  committed?: { reply: StoredReply; due: boolean }
  /** Its client went back to the pool (or was closed): never twice. */
  gone?: boolean
}

/**
 * The claims this process holds, by key, each a transaction on a client of its own, and how their
 * clients go back: to the pool once the transaction ends, or closed when it cannot be ended cleanly.
 */
export class HeldClaims<Client extends PooledClient> {
  readonly #held = new Map<string, Held<Client>>()
  readonly #timeoutMs: number

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs
  }

  /** The claim held under `key`, if it is still `token`'s. */
  get(key: string, token?: string): Held<Client> | undefined {
    const entry = this.#held.get(key)
    return entry && (token === undefined || entry.token === token) ? entry : undefined
  }

  /**
   * A claim's entry for `client`, whose connection breaking (Postgres gone, or its idle timeout)
   * is the claim lapsing. Held under `key` once {@link hold} is called.
   */
  open(key: string, client: Client, token: string, inFlightTtlMs: number): Held<Client> {
    const entry: Held<Client> = {
      token,
      client,
      inFlightTtlMs,
      state: 'open',
      onError: (error) => this.letGo(key, entry, error),
    }
    client.on('error', entry.onError)
    return entry
  }

  hold(key: string, entry: Held<Client>): void {
    this.#held.set(key, entry)
  }

  /** Stops holding a claim a handler committed: its client has already gone back. */
  forget(key: string): void {
    this.#held.delete(key)
  }

  /** Takes the claim's client back: to the pool, or closed (its transaction then dies with it). */
  letGo(key: string, entry: Held<Client>, destroy?: unknown): void {
    if (this.#held.get(key) === entry && entry.state !== 'committed') this.#held.delete(key)
    if (entry.gone) return
    entry.gone = true
    entry.client.off('error', entry.onError)
    entry.client.release(destroy ? toError(destroy) : undefined)
  }

  /** Rolls the claim's transaction back; closing the connection rolls it back just as well. */
  async rollBack(key: string, entry: Held<Client>): Promise<void> {
    try {
      await withTimeout(entry.client.query('ROLLBACK'), this.#timeoutMs, 'release')
      this.letGo(key, entry)
    } catch (error) {
      this.letGo(key, entry, error)
    }
  }

  /** Rolls back every transaction still open. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#held].map(([key, entry]) => (entry.state === 'open' ? this.rollBack(key, entry) : undefined)),
    )
  }
}

const toError = (value: unknown): Error => (value instanceof Error ? value : new Error(String(value)))
