import { type Cause, isWebhook, type Stamp } from './states.js'

/**
 * How a store answers one observation: applied (it is the user's state now), stale (older than the
 * state: acknowledged, never applied), a duplicate (this very event already set the state), or
 * uncertain (their order cannot be known: the user is marked and refreshed from the API).
 */
export type Verdict = 'applied' | 'stale' | 'duplicate' | 'uncertain'

/** The verdict, and the stamp to keep (the current one unless the observation changed it). */
export interface Decision {
  /** What the observation did. */
  verdict: Verdict
  /** The stamp to store now. */
  next: Stamp
}

/**
 * How far past a webhook's timestamp (past its second, when it has whole seconds only) a refresh must
 * be sent to be ordered after it: the service's clock is not the app's, and requests take time.
 */
export const DEFAULT_MARGIN_MS = 1000

/**
 * The ordering rule, the one definition every store applies (the Redis store's Lua script is its
 * transcription, and is tested against it):
 * - two webhooks: the later `timestamp` wins (a whole-second one is later only past its second); two
 *   distinct events with the same one are uncertain (see `tie`), the same event twice a duplicate;
 * - two refreshes: the later one wins;
 * - a webhook and a refresh: ordered only when `marginMs` apart; closer, the user is uncertain.
 */
export function decide(current: Stamp | undefined, seen: Stamp, marginMs: number): Decision {
  if (current === undefined) return applied(seen)
  const fromWebhook = isWebhook(seen.cause)
  if (fromWebhook && isWebhook(current.cause)) {
    if (after(seen, current)) return applied(seen)
    if (after(current, seen)) return kept('stale', current)
    return tie(current, seen)
  }
  if (!fromWebhook && !isWebhook(current.cause)) return seen.at >= current.at ? applied(seen) : kept('stale', current)
  // A refresh sent at `r` saw every event before `r`, none after; the webhook's time is known to a margin.
  const refreshAt = fromWebhook ? current.at : seen.at
  const event = fromWebhook ? seen : current
  if (event.at >= refreshAt) return fromWebhook ? applied(seen) : kept('stale', current)
  if (orderableAfter(event, marginMs) <= refreshAt) return fromWebhook ? kept('stale', current) : applied(seen)
  return kept('uncertain', { ...current, uncertain: true })
}

// A whole-second timestamp stands for any time in that second: later only when past its end.
const end = (stamp: Stamp) => stamp.at + (stamp.coarse ? 1000 : 1)
const after = (a: Stamp, b: Stamp) => a.at >= end(b)

/**
 * Two events whose timestamps cannot be told apart: the same, or one a whole second holding the other.
 * The spec lists the lifecycle in order (installed, activated, passive, deactivated, uninstalled), but
 * activated, passive and deactivated cycle, and an app reinstalled under its user_app_id starts again
 * after `app.uninstalled`: no pair of distinct events is settled by that order alone. The later of the
 * two in the spec's order is kept meanwhile, and the user is refreshed.
 */
function tie(current: Stamp, seen: Stamp): Decision {
  if (seen.cause === current.cause && seen.at === current.at && seen.coarse === current.coarse)
    return kept('duplicate', current)
  const later = Math.max(seen.cause, current.cause) as Cause
  // The time kept is the wider of the two (a whole second holds the other): an event must be past
  // both to be applied and clear the mark. Keeping a precise .300 beside a tied 10:00:00 let an
  // event at .400, as unordered against the whole second as the tie, apply as certain.
  const wider = end(seen) > end(current) ? seen : current
  return { verdict: 'uncertain', next: { at: wider.at, coarse: wider.coarse, cause: later, uncertain: true } }
}

/** When a refresh sent can be ordered after the event of `stamp`: past its time, and the margin. */
export const orderableAfter = (stamp: Stamp, marginMs: number): number => end(stamp) + marginMs

const applied = (seen: Stamp): Decision => ({ verdict: 'applied', next: { ...seen, uncertain: false } })
const kept = (verdict: Verdict, stamp: Stamp): Decision => ({ verdict, next: stamp })
