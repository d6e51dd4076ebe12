import type { TargetCheck } from './targets.js'

/**
 * What limits a target when it is missed, from profiling (`src/profile.ts` under `node --cpu-prof`).
 * Keyed by the start of the target's name; kept by hand next to the measurements it explains.
 */
const NOTES: readonly [prefix: string, note: string][] = []

export function limitsFor(checks: readonly TargetCheck[]): string[] {
  const missed = checks.filter((c) => !c.met)
  return NOTES.filter(([prefix]) => missed.some((c) => c.target.startsWith(prefix))).map(([, note]) => note)
}
