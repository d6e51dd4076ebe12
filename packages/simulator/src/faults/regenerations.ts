import { explainAnswer } from '@ringhook/testing'
import type { SimContext } from '../context.js'

/** How long after a secret regeneration a 401 is put down to it (the service's clock). */
export const REGENERATION_WINDOW_MS = 10 * 60_000

/** When each app's secret was last regenerated, read from the log so every way of doing it counts. */
export class SecretRegenerations {
  readonly #at = new Map<string, number>()

  constructor(private readonly ctx: SimContext) {
    ctx.log.subscribe((entry) => {
      if (entry.type === 'state' && entry.change === 'app.secret_regenerated' && entry.id !== null)
        this.#at.set(entry.id, ctx.clock())
      if (entry.type === 'state' && entry.change === 'reset') this.#at.clear()
    })
  }

  /** Milliseconds since the app's secret was regenerated, or null when it has not been. */
  since(appId: string): number | null {
    const at = this.#at.get(appId)
    return at === undefined ? null : this.ctx.clock() - at
  }
}

/** The log's explanation of a 401 that follows a regeneration closely, or undefined. */
export function regenerationNote(regenerations: SecretRegenerations, appId: string): string | undefined {
  const since = regenerations.since(appId)
  if (since === null || since > REGENERATION_WINDOW_MS) return undefined
  return `401 ${Math.round(since / 1000)} s after this app's secret was regenerated: the app probably still verifies with the old secret. Give it the new one (sim.apps.get(id).secret, GET /_sim/state), accept both during the change (secret: [old, new]), or keep the secret when changing the URL (keep_secret: true).`
}

/**
 * The log's explanation of an answer that was not an acknowledgement, as the CLI's live log and the
 * page show it: a 401 soon after a regeneration says so; otherwise the error code, its meaning, the fix.
 */
export function attemptNote(
  regenerations: SecretRegenerations,
  appId: string,
  status: number | null,
  reply: string | null,
): string | undefined {
  if (status === null || (status >= 200 && status < 300)) return undefined
  const regenerated = status === 401 ? regenerationNote(regenerations, appId) : undefined
  if (regenerated) return regenerated
  const { code, meaning, fix } = explainAnswer(status, reply ?? '')
  return `${code ? `${code}: ` : ''}${meaning}${fix ? `. Fix: ${fix}` : ''}`
}
