import { compareStates, type InstallsSource, type StatesSource } from '../verdict/states.js'
import type { DeliverySource, HandlerTracker } from '../verdict/tracker.js'

/** What `expect.extend` gives a matcher: only the parts used here. */
interface MatcherContext {
  isNot: boolean
}

interface MatcherResult {
  pass: boolean
  message: () => string
}

/**
 * Anything with the simulator's `report()` (`Simulator` of `@ringhook/simulator`): the parts of its
 * verdict the matcher reads, so this package needs nothing of the simulator.
 */
export interface Reporting {
  /** The service's verdict: clean or not, and each problem in one line. */
  report(): { ok: boolean; problems: readonly string[] }
}

const list = (problems: readonly string[]) => problems.map((problem) => `  - ${problem}`).join('\n')

/** The matchers `@ringhook/testing/vitest` registers, for `expect.extend` in another runner's setup. */
export const ringhookMatchers = {
  /** The service's verdict is clean: every delivery acknowledged, the same vibe on retries, answers in time. */
  toHaveDeliveredEverything(this: MatcherContext, received: Reporting): MatcherResult {
    const report = received.report()
    return {
      pass: report.ok,
      message: () =>
        this.isNot
          ? 'expected the simulator to report a problem, but every delivery was acknowledged cleanly'
          : `expected every delivery acknowledged cleanly, but the simulator reports:\n${list(report.problems)}`,
    }
  },
  /** Each event's handlers ran exactly once; with the simulator, every delivered event ran. */
  toHaveHandledEachEventOnce(this: MatcherContext, received: HandlerTracker, source?: DeliverySource): MatcherResult {
    const verdict = received.verdict(source)
    return {
      pass: verdict.ok,
      message: () =>
        this.isNot
          ? 'expected an event handled twice or never, but each was handled exactly once'
          : `expected each event handled exactly once, but:\n${list(verdict.problems)}`,
    }
  },
  /** Every user's state the app keeps (`@ringhook/users`) equals the service's (the simulator's). Await it. */
  async toHaveStatesOf(
    this: MatcherContext,
    received: StatesSource,
    service: InstallsSource,
    appId?: string,
  ): Promise<MatcherResult> {
    const verdict = await compareStates(received, service, appId)
    const shown = verdict.problems.slice(0, 20)
    const more = verdict.problems.length - shown.length
    return {
      pass: verdict.ok,
      message: () =>
        this.isNot
          ? `expected some user's state to differ from the service's, but all ${verdict.users} agree`
          : `expected every user's state to equal the service's, but ${verdict.problems.length} of ${verdict.users} differ:\n${list(shown)}${more > 0 ? `\n  … and ${more} more` : ''}`,
    }
  },
}

/** The matchers' signatures, added to vitest's `expect`. */
export interface RinghookMatchers<R = unknown> {
  /** The simulator's report is clean: every delivery acknowledged, same vibe on retries, answers in time. */
  toHaveDeliveredEverything(): R
  /** The tracker saw each event handled exactly once (and, given the simulator, every delivered one). */
  toHaveHandledEachEventOnce(source?: DeliverySource): R
  /**
   * Every user's state the app keeps equals the service's installs of `appId`; uninstalled users absent.
   * Await it: `await expect(users).toHaveStatesOf(sim, appId)`.
   */
  toHaveStatesOf(service: InstallsSource, appId?: string): Promise<R>
}
