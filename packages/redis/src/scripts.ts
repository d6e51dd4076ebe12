import { createHash } from 'node:crypto'

/** A Lua script and its SHA1, the name Redis caches it under. */
export interface RedisScript {
  readonly name: string
  readonly source: string
  readonly sha1: string
}

/** A script and its SHA1, computed once. */
export const script = (name: string, source: string): RedisScript =>
  Object.freeze({ name, source, sha1: createHash('sha1').update(source).digest('hex') })

// Each delivery is one hash: `token` while in flight, plus `status` and `body` once completed.
// One key per script, so the scripts also run on Redis Cluster.

/** ARGV: token, in-flight ttl (ms). Replies {'claimed'}, {'in_flight'} or {'completed', status, body}. */
export const CLAIM = script(
  'claim',
  `local entry = redis.call('HMGET', KEYS[1], 'token', 'status', 'body')
if not entry[1] then
  redis.call('HSET', KEYS[1], 'token', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'claimed'}
end
if entry[2] then return {'completed', entry[2], entry[3]} end
return {'in_flight'}`,
)

/** ARGV: token, status, body, completed ttl (ms). Acts only while the token owns the key. */
export const COMPLETE = script(
  'complete',
  `if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`,
)

/** ARGV: token. Acts only while the token owns the key. */
export const RELEASE = script(
  'release',
  `if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`,
)

/**
 * ARGV: token, ttl (ms). Acts only while the token owns the key. Keeps a claim for `ttl` without
 * storing anything: when Redis is out of memory, `complete` falls back to this, since PEXPIRE
 * needs no memory and is allowed where HSET is refused.
 */
export const HOLD = script(
  'hold',
  `if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`,
)
