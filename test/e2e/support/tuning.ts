import type { ReceiverOptions } from '@ringhook/core'

/**
 * Receiver options a test lays over the ones an example passes to `createReceiver`. The examples
 * take only a secret (and a logger), so a test that needs a short deadline or a live secret list
 * sets them here and mocks `createReceiver` to apply them; see examples.test.ts.
 */
export const tuning: { options: Partial<ReceiverOptions> } = { options: {} }
