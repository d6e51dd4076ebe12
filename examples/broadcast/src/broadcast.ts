import { LocalRateLimitError, type RinghookClient, vibe } from '@ringhook/client'
import type { Logger } from '@ringhook/core'
import type { UserStates } from '@ringhook/users'

/** What this instance's broadcasts came to since it started. */
export interface BroadcastStats {
  /** Broadcasts accepted. */
  broadcasts: number
  /** Vibes the service took. */
  sent: number
  /** Vibes not sent because no slot freed within `maxWaitMs`, or too many were already waiting. */
  skipped: number
  /** Vibes the service refused, or that failed on the way. */
  failed: number
}

/** Sends one message to every active user, each vibe when the limits allow it. */
export interface Broadcaster {
  /** Starts a broadcast and returns at once; the vibes go out as slots free. */
  start(message: string): void
  stats(): BroadcastStats
  /** Resolves when every broadcast started has finished. */
  idle(): Promise<void>
}

export interface BroadcastOptions {
  client: RinghookClient
  /** The users' states: a broadcast goes to those `active` when it reads them. */
  users: Pick<UserStates, 'inState'>
  appId: string
  logger: Logger
  /** Vibes waiting for a slot in this instance at most; more are skipped. */
  maxPending: number
  /** Active users read from the states at a time. Default 200. */
  pageSize?: number
}

export function createBroadcaster(options: BroadcastOptions): Broadcaster {
  const { client, users, appId, logger, maxPending, pageSize = 200 } = options
  const stats: BroadcastStats = { broadcasts: 0, sent: 0, skipped: 0, failed: 0 }
  const running = new Set<Promise<void>>()
  let pending = 0

  const send = async (userAppId: string, message: string): Promise<void> => {
    if (pending >= maxPending) {
      stats.skipped++
      return
    }
    pending++
    try {
      await client.vibes.trigger({ app_id: appId, user_app_id: userAppId, vibe: vibe('tap').notify(message) })
      stats.sent++
    } catch (error) {
      // The limiter gave up waiting: the broadcast goes on without this vibe, nothing was sent.
      if (error instanceof LocalRateLimitError) stats.skipped++
      else {
        stats.failed++
        logger.warn({ error: String(error), user_app_id: userAppId }, 'A broadcast vibe failed')
      }
    } finally {
      pending--
    }
  }

  // The active users the last complete read found: while the states cannot be read (Redis away), a
  // broadcast goes to them, within this instance's share of the limits, rather than to nobody.
  let lastActive: readonly string[] = []

  const broadcast = async (message: string): Promise<void> => {
    // A page of active users at a time, each page's vibes sent before the next is read: the states
    // are never read whole, and a long broadcast does not start every vibe at once.
    // Only the ids reached are kept: a page may show a user twice when users change meanwhile.
    const reached = new Set<string>()
    let page: Promise<void>[] = []
    const reach = async (userAppId: string): Promise<void> => {
      if (reached.has(userAppId)) return
      reached.add(userAppId)
      page.push(send(userAppId, message))
      if (page.length >= pageSize) {
        await Promise.all(page)
        page = []
      }
    }
    try {
      for await (const user of users.inState('active', { pageSize })) await reach(user.userAppId)
      lastActive = [...reached]
    } catch (error) {
      logger.warn(
        { error: String(error), last_known: lastActive.length },
        'A broadcast could not read the active users: it goes to those the last read found',
      )
      for (const userAppId of lastActive) await reach(userAppId)
    }
    // `send` never rejects: whatever was started finishes before the broadcast counts as done.
    await Promise.all(page)
  }

  return {
    start(message) {
      stats.broadcasts++
      const run = broadcast(message).finally(() => running.delete(run))
      running.add(run)
    },
    stats: () => ({ ...stats }),
    idle: async () => {
      while (running.size > 0) await Promise.all(running)
    },
  }
}
