/** The three states the service lists; an uninstalled user is not listed. */
const LISTED = ['active', 'passive', 'inactive'] as const

/**
 * What the comparison reads of an app's states: `createUserStates()` of `@ringhook/users` is one, so
 * this package needs nothing of it.
 */
export interface StatesSource {
  /** The users in one state. */
  inState(state: (typeof LISTED)[number]): AsyncIterable<{ userAppId: string; state: string }>
}

/** What it reads of the service: the simulator's `state()` (`Simulator` of `@ringhook/simulator`). */
export interface InstallsSource {
  /** The service's whole state: its installs, each with its app and state, are read. */
  state(): { installs: ReadonlyArray<{ user_app_id: string; app_id: string; state: string }> }
}

/** Whether an app's states equal the service's, and each difference in one line. */
export interface StatesVerdict {
  /** Every user agrees. */
  ok: boolean
  /** Users compared: the service's installs of the app and the app's listed users together. */
  users: number
  /** Each user that differs, in one line. */
  problems: string[]
}

/**
 * Compares every user's state the app keeps with the service's installs of `appId` (every app when
 * omitted): same users, same states; the app must list no user the service does not.
 *
 * @example
 * import { createSimulator } from '@ringhook/simulator'
 * import { createUserStates } from '@ringhook/users'
 * const sim = await createSimulator()
 * const verdict = await compareStates(createUserStates(), sim, app_id) // { ok, users, problems }
 */
export async function compareStates(
  app: StatesSource,
  service: InstallsSource,
  appId?: string,
): Promise<StatesVerdict> {
  const expected = new Map<string, string>()
  for (const install of service.state().installs)
    if (appId === undefined || install.app_id === appId) expected.set(install.user_app_id, install.state)
  const seen = new Map<string, string>()
  for (const state of LISTED) for await (const user of app.inState(state)) seen.set(user.userAppId, user.state)
  const problems: string[] = []
  for (const [userAppId, state] of expected) {
    const kept = seen.get(userAppId)
    if (kept !== state)
      problems.push(`${userAppId}: the service says ${state}, the app ${kept ?? 'has no state (absent)'}`)
  }
  for (const [userAppId, state] of seen)
    if (!expected.has(userAppId)) problems.push(`${userAppId}: the app says ${state}, the service has no such install`)
  return { ok: problems.length === 0, users: new Set([...expected.keys(), ...seen.keys()]).size, problems }
}
