/**
 * Vitest matchers for the verdicts: add `@ringhook/testing/vitest` to `setupFiles` (or import it in a
 * test), then `expect(sim).toHaveDeliveredEverything()` and `expect(tracker).toHaveHandledEachEventOnce(sim)`.
 *
 * @packageDocumentation
 */
import { expect } from 'vitest'
import { type RinghookMatchers, ringhookMatchers } from './matchers.js'

expect.extend(ringhookMatchers)

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest's own declaration of Matchers has this parameter
  interface Matchers<T = any> extends RinghookMatchers<T> {}
}

export type { InstallsSource, StatesSource } from '../verdict/states.js'
export { type Reporting, type RinghookMatchers, ringhookMatchers } from './matchers.js'
