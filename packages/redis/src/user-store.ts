import { RinghookConfigError } from '@ringhook/core'
import {
  pack,
  STATUSES,
  type Stamp,
  type StateCounts,
  type StoreResult,
  statusOf,
  type UserStatus,
  type UserStore,
  unpack,
  type Verdict,
} from '@ringhook/users/store'
import type { RedisScriptClient } from './client.js'
import { runScriptOn } from './client.js'
import { idOfUserField, userField } from './user-field.js'
import { APPLY_USER } from './user-script.js'

/** What the users' store needs of a Redis client: ioredis' `Redis` (or `Cluster`) is one as it is. */
export interface RedisUsersClient extends RedisScriptClient {
  /** HGET: one user's stamp. */
  hget(key: string, field: string): Promise<string | null>
  /** HMGET: a page's stamps. */
  hmget(key: string, ...fields: string[]): Promise<Array<string | null>>
  /** SCARD: the users in a state. */
  scard(key: string): Promise<number>
  /** SSCAN: a page of the users in a state. */
  sscan(key: string, cursor: string | number, countToken: 'COUNT', count: number): Promise<[string, string[]]>
}

/** Where {@link redisUserStore} keeps states. */
export interface RedisUserStoreOptions {
  /** An ioredis client (`new Redis(url)`), shared with the app's other uses. */
  client: RedisUsersClient
  /**
   * Put before every key; one per app. Default `ringhook:users:`. On Redis Cluster, give it a hash tag
   * (`ringhook:users:{app_123}:`): a user's compare-and-set touches several keys, which must share a slot.
   */
  prefix?: string
}

/**
 * Users' states (`@ringhook/users`) on Redis: each event is one atomic compare-and-set by timestamp (a
 * Lua script), so any number of instances apply one user's events in any order and interleaving and
 * agree. Keys: a hash of every user's stamp, and a set per state (for counts and pages).
 *
 * @example
 * import { createUserStates } from '@ringhook/users'
 * import { Redis } from 'ioredis'
 * const users = createUserStates({ store: redisUserStore({ client: new Redis(process.env.REDIS_URL!) }) })
 */
export function redisUserStore(options: RedisUserStoreOptions): UserStore {
  const { client } = options
  const prefix = options.prefix ?? 'ringhook:users:'
  if (typeof prefix !== 'string') throw new RinghookConfigError('redisUserStore: `prefix` must be a string')
  const stamps = `${prefix}stamps`
  const sets = Object.fromEntries(STATUSES.map((status) => [status, `${prefix}state:${status}`])) as Record<
    UserStatus,
    string
  >
  const keys = [stamps, sets.active, sets.passive, sets.inactive, sets.uninstalled]

  return {
    async apply(userAppId, seen, marginMs): Promise<StoreResult> {
      const args = [userField(userAppId), String(pack(seen)), String(marginMs)]
      const [verdict, before, after] = (await runScriptOn(client, APPLY_USER, keys, args)) as [
        Verdict,
        string | null,
        string,
      ]
      return { verdict, before: before ? unpack(Number(before)) : undefined, after: unpack(Number(after)) }
    },
    async get(userAppId) {
      const packed = await client.hget(stamps, userField(userAppId))
      return packed === null ? undefined : unpack(Number(packed))
    },
    async *pages(status, pageSize) {
      let cursor = '0'
      do {
        const [next, members] = await client.sscan(sets[status], cursor, 'COUNT', pageSize)
        cursor = next
        if (members.length === 0) continue
        const packed = await client.hmget(stamps, ...members)
        const page: Array<readonly [string, Stamp]> = []
        members.forEach((field, i) => {
          const value = packed[i]
          if (value === null || value === undefined) return
          const stamp = unpack(Number(value))
          // Moved to another state between the two commands: it belongs to that state's pages now.
          if (statusOf(stamp.cause) === status) page.push([idOfUserField(field), stamp])
        })
        yield page
      } while (cursor !== '0')
    },
    async count(): Promise<StateCounts> {
      const [active, passive, inactive] = await Promise.all([
        client.scard(sets.active),
        client.scard(sets.passive),
        client.scard(sets.inactive),
      ])
      return { active, passive, inactive }
    },
  }
}
