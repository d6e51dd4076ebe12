import { createHash } from 'node:crypto'
import type { RedisScript } from './scripts.js'

const script = (name: string, source: string): RedisScript =>
  Object.freeze({ name, source, sha1: createHash('sha1').update(source).digest('hex') })

// Every script reads the time from Redis (TIME), never from the instances, whose clocks differ.
// A window is a sorted set of the slots taken in it, scored by when: a sliding-window log, exact
// to the slot. Waiters for the key stand in a line (a sorted set scored by arrival) and are served
// in its order; a place lapses when its waiter does not come back in time (a killed instance).
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`

/**
 * Milliseconds until the \`nth\` (0-based, oldest first) slot of a log frees; 0 when it is already
 * free; a whole window when it is not in the log yet (a waiter behind more than a window's worth).
 */
const FREES_AT = `local function freesIn(log, nth, window)
  if nth < 0 then return 0 end
  local entry = redis.call('ZRANGE', log, nth, nth, 'WITHSCORES')
  if entry[2] == nil then return window end
  return tonumber(entry[2]) + window - now
end`

/**
 * The count's epoch: a random name kept in Redis, with no expiry. An instance sends the one it last
 * saw, or '' when it holds no slot of the window (it has nothing to count again); a Redis that
 * restarted empty has none (the script names a new one, the caller's proposal), and an instance that
 * finds another than its own has slots of the window that Redis lost: it counts them again (its
 * mirror of them) before it decides anything.
 */
const EPOCH = (key: string, known: string, proposal: string) => `local epoch = redis.call('GET', ${key})
if not epoch then
  redis.call('SET', ${key}, ${proposal})
  epoch = ${proposal}
end
if ${known} ~= '' and epoch ~= ${known} then return {2, epoch} end`

/**
 * KEYS: key log, user log, line, line deadlines, key pause, user pause, epoch.
 * ARGV: ticket, key limit (0: none), key window, user limit (0: none), user window, max wait (-1: none), grace,
 * known epoch, proposed epoch.
 * Replies {1, epoch} (taken), {0, scope, wait ms as a string, epoch}, or {2, epoch} (another epoch
 * than the one sent: nothing decided).
 */
export const TAKE = script(
  'limit-take',
  `${NOW}
${FREES_AT}
${EPOCH('KEYS[7]', 'ARGV[8]', 'ARGV[9]')}
local ticket = ARGV[1]
local keyLimit, keyWindow = tonumber(ARGV[2]), tonumber(ARGV[3])
local userLimit, userWindow = tonumber(ARGV[4]), tonumber(ARGV[5])
local maxWait, grace = tonumber(ARGV[6]), tonumber(ARGV[7])
local function leaveLine()
  redis.call('ZREM', KEYS[3], ticket)
  redis.call('ZREM', KEYS[4], ticket)
end
if userLimit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - userWindow)
  local used = redis.call('ZCARD', KEYS[2])
  local wait = math.max(freesIn(KEYS[2], used - userLimit, userWindow), redis.call('PTTL', KEYS[6]))
  if wait > 0 then
    leaveLine()
    return {0, 'user', tostring(wait), epoch}
  end
end
if keyLimit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - keyWindow)
  local lapsed = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, 500)
  if #lapsed > 0 then
    redis.call('ZREM', KEYS[3], unpack(lapsed))
    redis.call('ZREM', KEYS[4], unpack(lapsed))
  end
  local free = keyLimit - redis.call('ZCARD', KEYS[1])
  local place = redis.call('ZRANK', KEYS[3], ticket) or redis.call('ZCARD', KEYS[3])
  local wait = math.max(freesIn(KEYS[1], place - free, keyWindow), redis.call('PTTL', KEYS[5]))
  if wait > 0 then
    if maxWait >= 0 and wait > maxWait then
      leaveLine()
    else
      if not redis.call('ZSCORE', KEYS[3], ticket) then redis.call('ZADD', KEYS[3], now, ticket) end
      redis.call('ZADD', KEYS[4], now + wait + grace, ticket)
      redis.call('PEXPIRE', KEYS[3], keyWindow + grace)
      redis.call('PEXPIRE', KEYS[4], keyWindow + grace)
    end
    return {0, 'key', tostring(wait), epoch}
  end
  leaveLine()
  redis.call('ZADD', KEYS[1], now, ticket)
  redis.call('PEXPIRE', KEYS[1], keyWindow)
end
if userLimit > 0 then
  redis.call('ZADD', KEYS[2], now, ticket)
  redis.call('PEXPIRE', KEYS[2], userWindow)
end
return {1, epoch}`,
)

/** KEYS: user log, user pause. ARGV: user limit, user window. Replies the vibes left now. */
export const REMAINING = script(
  'limit-remaining',
  `${NOW}
if redis.call('PTTL', KEYS[2]) > 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return math.max(0, tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1]))`,
)

/** KEYS: pause. ARGV: ms. Lengthens a pause, never shortens it. */
export const PAUSE = script(
  'limit-pause',
  `if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1`,
)

/** KEYS: line, line deadlines. ARGV: ticket. */
export const LEAVE = script(
  'limit-leave',
  `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`,
)

/**
 * KEYS: one log, epoch. ARGV: window, known epoch, proposed epoch, then pairs of (age ms, member).
 * Counts slots taken elsewhere, each `age` ms before now, unless already past the window. Replies
 * {1}, or {2, epoch} when the epoch is another (nothing counted).
 */
export const RESTORE = script(
  'limit-restore',
  `${NOW}
${EPOCH('KEYS[2]', 'ARGV[2]', 'ARGV[3]')}
local window = tonumber(ARGV[1])
for i = 4, #ARGV, 2 do
  local at = now - tonumber(ARGV[i])
  if at > now - window then redis.call('ZADD', KEYS[1], at, ARGV[i + 1]) end
end
redis.call('PEXPIRE', KEYS[1], window)
return {1}`,
)
