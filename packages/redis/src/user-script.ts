import { isWebhook, STATUS_OF, STATUSES } from '@ringhook/users/store'
import { script } from './scripts.js'

// The users' ordering rule (`decide` of @ringhook/users/store) transcribed to Lua, so that a user's compare-and-set is
// one atomic step on the server whatever instance sends it. test/users/redis-script.test.ts runs both
// on the same random cases: change one, change the other.
//
// KEYS: 1 the stamps hash, 2 to 5 the sets of active, passive, inactive and uninstalled users.
// ARGV: 1 the user, 2 the packed stamp seen, 3 the margin (ms).
// Returns { verdict, before (packed, or false), after (packed) }, numbers as decimal strings.
//
// The tables come from @ringhook/users/store, which has them from core's list of events: where the lifecycle
// events end among the causes, and the set (KEYS index) of each cause's state.
const FIRST_API_CAUSE = STATUS_OF.findIndex((_, cause) => !isWebhook(cause))
const SET_OF_CAUSE = STATUS_OF.map((status, cause) => `[${cause}] = ${STATUSES.indexOf(status) + 2}`).join(', ')

/** The compare-and-set of one user's stamp, as a Lua script. */
export const APPLY_USER = script(
  'apply_user',
  `
local function unpackStamp(p)
  local low = p % 64
  return { at = (p - low) / 64, coarse = low >= 32, cause = math.floor((low % 32) / 2), unc = (low % 2) == 1 }
end
local function packStamp(s)
  local p = s.at * 64 + s.cause * 2
  if s.coarse then p = p + 32 end
  if s.unc then p = p + 1 end
  return p
end
local function isWebhook(c) return c < ${FIRST_API_CAUSE} end
local function ending(s) if s.coarse then return s.at + 1000 end return s.at + 1 end
local function applied(s) return 'applied', { at = s.at, coarse = s.coarse, cause = s.cause, unc = false } end
local function marked(s) return 'uncertain', { at = s.at, coarse = s.coarse, cause = s.cause, unc = true } end

local function decide(cur, seen, margin)
  if cur == nil then return applied(seen) end
  local fromWebhook = isWebhook(seen.cause)
  if fromWebhook and isWebhook(cur.cause) then
    if seen.at >= ending(cur) then return applied(seen) end
    if cur.at >= ending(seen) then return 'stale', cur end
    if seen.cause == cur.cause and seen.at == cur.at and seen.coarse == cur.coarse then return 'duplicate', cur end
    local wide = cur
    if ending(seen) > ending(cur) then wide = seen end
    return 'uncertain', { at = wide.at, coarse = wide.coarse, cause = math.max(seen.cause, cur.cause), unc = true }
  end
  if (not fromWebhook) and (not isWebhook(cur.cause)) then
    if seen.at >= cur.at then return applied(seen) end
    return 'stale', cur
  end
  local refreshAt = fromWebhook and cur.at or seen.at
  local event = fromWebhook and seen or cur
  if event.at >= refreshAt then
    if fromWebhook then return applied(seen) end
    return 'stale', cur
  end
  if ending(event) + margin <= refreshAt then
    if fromWebhook then return 'stale', cur end
    return applied(seen)
  end
  return marked(cur)
end

-- The set (KEYS index) of each cause's state.
local SET = { ${SET_OF_CAUSE} }
local user = ARGV[1]
local stored = redis.call('HGET', KEYS[1], user)
local before = stored and unpackStamp(tonumber(stored)) or nil
local verdict, after = decide(before, unpackStamp(tonumber(ARGV[2])), tonumber(ARGV[3]))
local packed = string.format('%.0f', packStamp(after))
if packed ~= stored then redis.call('HSET', KEYS[1], user, packed) end
if before == nil or SET[before.cause] ~= SET[after.cause] then
  if before ~= nil then redis.call('SREM', KEYS[SET[before.cause]], user) end
  redis.call('SADD', KEYS[SET[after.cause]], user)
end
return { verdict, stored or false, packed }
`,
)
