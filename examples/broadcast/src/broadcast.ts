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

  const broadcast = async (message: string): Promise<void> => {
    // A page of active users at a time, each page's vibes sent before the next is read: the states
    // are never read whole, and a long broadcast does not start every vibe at once.
    // Only the ids reached are kept: a page may show a user twice when users change meanwhile.
    const reached = new Set<string>()
    let page: Promise<void>[] = []
    try {
      for await (const user of users.inState('active', { pageSize })) {
        if (reached.has(user.userAppId)) continue
        reached.add(user.userAppId)
        page.push(send(user.userAppId, message))
        if (page.length >= pageSize) {
          await Promise.all(page)
          page = []
        }
      }
    } catch (error) {
      logger.warn({ error: String(error) }, 'A broadcast could not read the active users')
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
