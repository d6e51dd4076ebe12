import { parseInput } from '../inputs.js'
import {
  FAULT_NAMES,
  FAULT_PROFILES,
  type FaultName,
  type FaultSettings,
  type FaultSettingsInput,
  faultSettingsInput,
  nextFaultsInput,
} from './kinds.js'
import { seededRandom } from './random.js'

const DEFAULT_SEED = 35

const noRates = (): Record<FaultName, number> =>
  Object.fromEntries(FAULT_NAMES.map((name) => [name, 0])) as Record<FaultName, number>

/** Decides which faults hit which delivery: queued ones first, then by probability from a seeded source. */
export class FaultInjector {
  #settings: FaultSettings = { profile: null, rates: noRates(), next: [], seed: DEFAULT_SEED }
  #random = seededRandom(DEFAULT_SEED)

  constructor(initial?: FaultSettingsInput) {
    if (initial) this.set(initial)
  }

  /** Replaces the rates (a profile, then per-fault overrides) and, when given, the seed. */
  set(raw: FaultSettingsInput): FaultSettings {
    const input = parseInput(faultSettingsInput, raw)
    const rates = { ...noRates(), ...(input.profile ? FAULT_PROFILES[input.profile] : {}), ...input.rates }
    const seed = input.seed ?? this.#settings.seed
    if (input.seed !== undefined) this.#random = seededRandom(seed)
    this.#settings = { profile: input.profile ?? null, rates, next: this.#settings.next, seed }
    return this.settings()
  }

  /** Queues faults for the next delivery (or attempt) each applies to. */
  next(faults: FaultName | readonly FaultName[]): FaultSettings {
    const input = parseInput(nextFaultsInput, { faults: typeof faults === 'string' ? [faults] : [...faults] })
    this.#settings.next.push(...input.faults)
    return this.settings()
  }

  /** No fault any more, nothing queued; the seed stays. */
  clear(): FaultSettings {
    this.#settings = { ...this.#settings, profile: null, rates: noRates(), next: [] }
    return this.settings()
  }

  settings(): FaultSettings {
    return structuredClone(this.#settings)
  }

  /** Whether `fault` hits now; a queued one is used up, and nothing is drawn when it cannot apply. */
  hits(fault: FaultName, applies = true): boolean {
    if (!applies) return false
    const queued = this.#settings.next.indexOf(fault)
    if (queued >= 0) {
      this.#settings.next.splice(queued, 1)
      return true
    }
    const rate = this.#settings.rates[fault]
    return rate > 0 && this.#random() < rate
  }
}
