import { createRateLimiter, NotFoundError, type RateLimiter, type UsersApi } from '@ringhook/client'
import { RinghookConfigError } from '@ringhook/core'
import { RATE_LIMITS } from '@ringhook/core/api'
import { orderableAfter } from './order.js'
import { type Stamp, stampOfApi } from './states.js'
import type { StoreResult, UserStore } from './user-store.js'

/** What one refresh from the API did. */
export interface RefreshResult {
  /** Users the API listed. */
  listed: number
  /** Users whose stored state the refresh changed (uninstalled ones the API no longer lists included). */
  changed: number
  /** When the request was sent: what the refresh's states are stamped with. */
  sentAt: Date
}

/** The part of `@ringhook/client`'s client a refresh uses. */
export interface UsersClient {
  /** `client.users`: `list` for a full refresh, `get` for one user. */
  readonly users: Pick<UsersApi, 'list' | 'get'>
}

export interface RefresherOptions {
  client: UsersClient
  appId: string
  share: number
  marginMs: number
  /** More users waiting than this are refreshed by one list request instead of one request each. */
  listAbove: number
  onError: (error: unknown) => void
}

// Applies `seen` to many users at once, a bounded number in flight, so Redis and Postgres stores
// overlap their round trips without opening a connection per user.
const IN_FLIGHT = 32

/**
 * Loads states from `GET /v1/apps/:app_id/users`, and single users when uncertain, within a budget
 * of its own: `share` of the key's 100 requests per 60 s. The client's own limiter, when it has one,
 * still counts every request.
 */
export class Refresher {
  readonly #budget: RateLimiter
  readonly #limit: number
  /** When this refresher's requests of the last window were sent: what is left of its share. */
  readonly #sent: number[] = []
  readonly #waiting = new Map<string, number>()
  #draining: Promise<void> | undefined
  #closed = false
  #timer: NodeJS.Timeout | undefined

  constructor(
    private readonly store: UserStore<unknown>,
    private readonly options: RefresherOptions,
  ) {
    const { limit, windowMs } = RATE_LIMITS.requestsPerKey
    if (!(options.share > 0 && options.share <= 1))
      throw new RinghookConfigError(
        `createUserStates: refresh.share must be above 0 and at most 1, got ${options.share}`,
      )
    this.#limit = Math.max(1, Math.floor(limit * options.share))
    this.#budget = createRateLimiter({ requestsPerKey: { limit: this.#limit, windowMs }, vibesPerUser: false })
  }

  /** Every user from the list endpoint; users stored but not listed are uninstalled as of the request. */
  async all(): Promise<RefreshResult> {
    const at = await this.#take()
    const { users } = await this.options.client.users.list(this.options.appId)
    const listed = new Set<string>()
    let changed = 0
    let batch: Promise<StoreResult>[] = []
    const flush = async () => {
      changed += (await Promise.all(batch)).filter(changedState).length
      batch = []
    }
    for (const user of users) {
      listed.add(user.user_app_id)
      batch.push(this.#apply(user.user_app_id, stampOfApi(at, user.state)))
      if (batch.length >= IN_FLIGHT) await flush()
    }
    await flush()
    for (const status of ['active', 'passive', 'inactive'] as const) {
      for await (const page of this.store.pages(status, 500)) {
        const gone = page.filter(([userAppId]) => !listed.has(userAppId))
        const done = await Promise.all(gone.map(([userAppId]) => this.#apply(userAppId, stampOfApi(at, undefined))))
        changed += done.filter(changedState).length
      }
    }
    // Whoever waited for a refresh sent before this one has had it.
    for (const [userAppId, notBefore] of this.#waiting) if (notBefore <= at) this.#waiting.delete(userAppId)
    return { listed: users.length, changed, sentAt: new Date(at) }
  }

  /** One user from `GET /v1/apps/:app_id/users/:user_app_id`; not found means uninstalled. */
  async one(userAppId: string): Promise<StoreResult> {
    const at = await this.#take()
    try {
      const user = await this.options.client.users.get(this.options.appId, userAppId)
      return await this.#apply(userAppId, stampOfApi(at, user.state))
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      return this.#apply(userAppId, stampOfApi(at, undefined))
    }
  }

  /**
   * Refreshes the user soon: not before `notBefore` (ms), when a refresh sent then can be ordered
   * after the events that made the user uncertain.
   */
  queue(userAppId: string, notBefore: number): void {
    if (this.#closed) return
    this.#waiting.set(userAppId, Math.max(notBefore, this.#waiting.get(userAppId) ?? 0))
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined
      if (this.#waiting.size > 0) this.queue(...(this.#waiting.entries().next().value as [string, number]))
    })
  }

  /** Resolves once no user waits for a refresh. */
  async idle(): Promise<void> {
    while (this.#draining) await this.#draining
  }

  /** Runs `all` now and every `everyMs`, failures to `onError`; the timer does not keep the process up. */
  every(everyMs: number): void {
    this.#timer = setInterval(() => this.all().catch(this.options.onError), everyMs)
    this.#timer.unref()
  }

  /** Stops the schedule and drops the users waiting. */
  close(): void {
    this.#closed = true
    clearInterval(this.#timer)
    this.#waiting.clear()
  }

  async #drain(): Promise<void> {
    while (this.#waiting.size > 0 && !this.#closed) {
      const now = Date.now()
      const due = [...this.#waiting].filter(([, notBefore]) => notBefore <= now)
      if (due.length === 0) {
        await sleep(Math.min(...this.#waiting.values()) - now)
        continue
      }
      // One list request settles them all: cheaper than one request each past a few, or than the share has left.
      if (due.length > Math.min(this.options.listAbove, this.#left() - 1)) {
        await this.all().catch(this.#retryLater(due))
        continue
      }
      for (const [userAppId] of due) {
        this.#waiting.delete(userAppId)
        await this.one(userAppId).catch(this.#retryLater([[userAppId, now]]))
      }
    }
  }

  /**
   * Waits for a request of the share; resolves when it is sent (what its states are stamped with).
   * Requests are spaced evenly over the window rather than spent in a burst: users that become
   * uncertain later are then never left waiting a whole window for the share to come back.
   */
  async #take(): Promise<number> {
    const last = this.#sent[this.#sent.length - 1]
    const spacing = RATE_LIMITS.requestsPerKey.windowMs / this.#limit
    if (last !== undefined) await sleep(last + spacing - Date.now())
    await this.#budget.acquire()
    const at = Date.now()
    this.#sent.push(at)
    return at
  }

  /** Requests the share has left in the current window. */
  #left(): number {
    const since = Date.now() - RATE_LIMITS.requestsPerKey.windowMs
    while (this.#sent.length > 0 && (this.#sent[0] as number) <= since) this.#sent.shift()
    return this.#limit - this.#sent.length
  }

  #retryLater(users: Array<[string, number]>) {
    return (error: unknown) => {
      this.options.onError(error)
      const later = Date.now() + RETRY_AFTER_MS
      for (const [userAppId] of users) this.#waiting.set(userAppId, later)
      return undefined
    }
  }

  async #apply(userAppId: string, seen: Stamp): Promise<StoreResult> {
    const result = await this.store.apply(userAppId, seen, this.options.marginMs)
    // Too close to an event to be ordered (the clocks apart): asked again once the margin has passed.
    if (result.verdict === 'uncertain') this.queue(userAppId, orderableAfter(result.after, this.options.marginMs))
    return result
  }
}

const RETRY_AFTER_MS = 5000
/**
 * The longest wait a Node timer holds (2^31-1 ms, about 24.8 days); a longer one fires at once, with
 * a TimeoutOverflowWarning. A longer wait (a refresh due in year 6000) sleeps this long, and the
 * loop that waits looks again.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1
const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.min(MAX_TIMER_MS, Math.max(0, ms))).unref())
const changedState = (result: StoreResult) =>
  result.verdict === 'applied' && result.before?.cause !== result.after.cause
