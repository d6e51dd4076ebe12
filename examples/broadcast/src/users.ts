// The app's users and their states: the one module that knows where they come from. Today, the
// service's `GET /apps/:app_id/users`, read once a minute for the whole fleet (the answer is
// shared through Redis, so three instances do not spend three requests of the key's 100 on it).
import type { RinghookClient, User } from '@ringhook/client'
import type { Redis } from 'ioredis'

/** Users as the app sees them. */
export interface Users {
  /** Every user and their state. */
  list(): Promise<User[]>
  /** The `user_app_id` of each user in the `active` state. */
  active(): Promise<string[]>
}

/** How long a read of the users is shared before the next one. */
const FRESH_MS = 60_000

export function createUsers(client: RinghookClient, appId: string, redis: Redis, prefix: string): Users {
  const key = `${prefix}users:${appId}`
  // Also kept in this process, so that an instance without Redis reads the service once a minute too.
  let local: { users: User[]; until: number } | undefined
  // One read at a time: a read may wait for a slot of the key, and broadcasts arriving meanwhile
  // must not each spend a request of their own on the same list.
  let reading: Promise<User[]> | undefined
  const read = async (): Promise<User[]> => {
    const cached = await redis.get(key).catch(() => null)
    const users = cached ? (JSON.parse(cached) as User[]) : (await client.users.list(appId)).users
    if (!cached) await redis.set(key, JSON.stringify(users), 'PX', FRESH_MS).catch(() => undefined)
    local = { users, until: Date.now() + FRESH_MS }
    return users
  }
  const list = async (): Promise<User[]> => {
    if (local && local.until > Date.now()) return local.users
    reading ??= read().finally(() => {
      reading = undefined
    })
    return reading
  }
  return {
    list,
    active: async () => (await list()).filter((user) => user.state === 'active').map((user) => user.user_app_id),
  }
}
