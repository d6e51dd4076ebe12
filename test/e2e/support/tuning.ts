import type { ReceiverOptions } from '@ringhook/core'

/**
 * Receiver options a scenario lays over the example's defaults (a short deadline, a live secret
 * list); support/examples.ts passes them to the example's `createApp`.
 */
export const tuning: { options: Partial<ReceiverOptions> } = { options: {} }
