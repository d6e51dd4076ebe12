import { z } from 'zod'

/**
 * The service's bad days the simulator can play, by probability or on the next delivery:
 * - `duplicate`: the same payload sent again after the app acknowledged it, newly signed;
 * - `lost_ack`: the app answered 2xx, the service acts as if it timed out and retries;
 * - `slow`: the request reaches the app 25 s (scaled) after it was signed, leaving 5 s of the 30 s limit;
 * - `reorder`: a lifecycle event is held back and sent after the install's next event;
 * - `same_second`: two distinct events of an install carry the same whole-second timestamp;
 * - `skew_within`: the timestamp header is 240 s off, inside the 300 s tolerance (must be accepted);
 * - `skew_beyond`: the timestamp header is 400 s off, outside it (must be refused; the retry is not skewed);
 * - `rotation`: the acknowledgement is lost and the app's secret regenerated before the retry;
 * - `burst`: the same attempt posted three times at once.
 *
 * Faults that cost an attempt (`lost_ack`, `rotation`, `skew_beyond`) are injected only when a retry
 * is left, so an app that handles them correctly always ends delivered.
 */
export const FAULT_NAMES = [
  'duplicate',
  'lost_ack',
  'slow',
  'reorder',
  'same_second',
  'skew_within',
  'skew_beyond',
  'rotation',
  'burst',
] as const

/** One of {@link FAULT_NAMES}. */
export type FaultName = (typeof FAULT_NAMES)[number]

/** Named bundles of fault rates, for `--faults <profile>` and `{ profile }`. */
export const FAULT_PROFILES = {
  none: {},
  'flaky-network': { duplicate: 0.2, lost_ack: 0.2, slow: 0.1, burst: 0.1 },
  reorder: { reorder: 0.5, same_second: 0.5 },
  rotation: { rotation: 0.3, skew_within: 0.2 },
  'clock-skew': { skew_within: 0.3, skew_beyond: 0.3 },
  chaos: Object.fromEntries(FAULT_NAMES.map((name) => [name, 0.15])),
} as const satisfies Record<string, Partial<Record<FaultName, number>>>

/** A name of {@link FAULT_PROFILES}. */
export type FaultProfile = keyof typeof FAULT_PROFILES

const faultName = z.enum(FAULT_NAMES)
const profileName = z.enum(Object.keys(FAULT_PROFILES) as [FaultProfile, ...FaultProfile[]])

/**
 * The body of `POST /_sim/faults`, and what `createSimulator({ faults })` and `sim.faults.set()` take:
 * a profile, per-fault probabilities (which override the profile's), and the random seed.
 */
export const faultSettingsInput = z.strictObject({
  profile: profileName.optional(),
  rates: z.partialRecord(faultName, z.number().min(0).max(1)).optional(),
  seed: z.number().int().optional(),
})

/** See {@link FaultSettingsInput}. */
type ParsedFaultSettings = z.input<typeof faultSettingsInput>

/** The body of `POST /_sim/faults/next`: faults for the next delivery they apply to, in order. */
export const nextFaultsInput = z.strictObject({ faults: z.array(faultName).min(1).max(20) })

/**
 * What `createSimulator({ faults })`, `sim.faults.set()` and `POST /_sim/faults` take; every field optional.
 */
export interface FaultSettingsInput {
  /** A bundle of rates, see {@link FAULT_PROFILES}. */
  profile?: FaultProfile
  /** Probabilities from 0 to 1 per fault, over the profile's. */
  rates?: Partial<Record<FaultName, number>>
  /** The random source's seed: the same seed and the same run inject the same faults. Default 35. */
  seed?: number
}

// The interface above is the documented form of the schema's input; this keeps them equal.
const _sameShape: (input: FaultSettingsInput) => ParsedFaultSettings = (input) => input
void _sameShape

/** The faults in force, as `GET /_sim/faults` answers. */
export interface FaultSettings {
  /** The profile last set, or null. */
  profile: FaultProfile | null
  /** The probability of each fault, per delivery or attempt it applies to. */
  rates: Record<FaultName, number>
  /** Faults queued for the next delivery they apply to, in order. */
  next: FaultName[]
  /** The seed of the random source: the same seed and the same run inject the same faults. */
  seed: number
}

/** One fault the simulator injected, as the log and the report show it. */
export interface InjectedFault {
  /** Which fault. */
  fault: FaultName
  /** The attempt it touched; null for a fault of the whole delivery (`reorder`, `same_second`). */
  attempt: number | null
  /** What it did, in one sentence. */
  detail: string
}
