import { LocalRateLimitError, type RinghookClient, vibe } from '@ringhook/client'
import type { Logger } from '@ringhook/core'
import type { Users } from './users.js'

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
  users: Users
  appId: string
  logger: Logger
  /** Vibes waiting for a slot in this instance at most; more are skipped. */
  maxPending: number
}

export function createBroadcaster(options: BroadcastOptions): Broadcaster {
  const { client, users, appId, logger, maxPending } = options
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
    try {
      const targets = await users.active()
      await Promise.all(targets.map((userAppId) => send(userAppId, message)))
    } catch (error) {
      logger.warn({ error: String(error) }, 'A broadcast could not read the active users')
    }
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
