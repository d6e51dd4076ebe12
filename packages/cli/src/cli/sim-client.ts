import { type CappedResponse, cutNote, redirectNote, request } from '../answer.js'
import { UsageError } from './io.js'
import { DEFAULT_TIMEOUT_MS, NoAnswerInTime } from './timeout.js'

/** Where `ringhook simulate` listens unless told otherwise. */
export const DEFAULT_SIM_URL = 'http://127.0.0.1:4010'

/** The environment variable `ringhook simulate` reads its control token from. */
export const SIM_TOKEN_ENV = 'RINGHOOK_SIM_TOKEN'

export interface SimUser {
  id: string
  name: string
}
export interface SimApp {
  app_id: string
  name: string
  type: string
}
export interface SimInstall {
  user_app_id: string
  app_id: string
  user_id: string
  state: string
  external_user_id: string | null
}
export interface SimState {
  users: SimUser[]
  apps: SimApp[]
  installs: SimInstall[]
}
export interface SimDelivery {
  id: string
  event: string
  app_id: string
  user_app_id: string
  status: string
  attempts: { status: number | null; outcome: string }[]
  created_at: string
}
export interface SimNotification {
  event_id: string
  app_id: string
  user_app_id: string
  status: string
  created_at: string
}

/** A control API call failed: the simulator's own message, or why it could not be reached. */
export class SimError extends Error {
  override readonly name = 'SimError'
}

/** The control API of a running simulator, called with the run's token. */
export class SimClient {
  constructor(
    readonly url: string,
    readonly token: string | undefined,
    /** Gives up on a call after this long, answer read included. */
    readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  get<T>(path: string): Promise<T> {
    return this.#call<T>('GET', path)
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    if (!this.token) {
      throw new UsageError(
        `Changing the simulator needs its token: set ${SIM_TOKEN_ENV} or pass --token (the banner prints it).`,
      )
    }
    return this.#call<T>('POST', path, body)
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: CappedResponse
    try {
      response = await request(
        `${this.url}/_sim${path}`,
        {
          method,
          headers: {
            ...(this.token ? { 'x-ringhook-sim-token': this.token } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        this.timeoutMs,
      )
    } catch (error) {
      if (error instanceof NoAnswerInTime)
        throw new SimError(`No simulator answers at ${this.url}: ${error.message}. Is --sim another server?`)
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message
      throw new SimError(
        `No simulator answers at ${this.url} (${cause}): start it with "ringhook simulate", or pass --sim.`,
      )
    }
    const { text, status } = response
    const redirect = redirectNote(status, response.headers.get('location'))
    if (!response.ok) throw new SimError(`The simulator answered ${status}: ${redirect ?? errorMessage(text)}`)
    try {
      return JSON.parse(text) as T
    } catch {
      throw new SimError(
        `The answer at ${this.url} is not the simulator's JSON${response.cut ? ` ${cutNote()}` : ''}: pass --sim.`,
      )
    }
  }
}

function errorMessage(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: { message?: string; code?: string } }).error
    return error?.message ?? error?.code ?? text.slice(0, 200)
  } catch {
    return text.slice(0, 200)
  }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** A user by id, name or an install's external user id; a UsageError naming the choices otherwise. */
export function findUser(state: SimState, name: string): SimUser {
  const byExternal = state.installs.find((i) => i.external_user_id !== null && same(i.external_user_id, name))
  const user =
    state.users.find((u) => u.id === name) ??
    state.users.find((u) => same(u.name, name)) ??
    state.users.find((u) => u.id === byExternal?.user_id)
  if (!user) throw new UsageError(`No user "${name}"; there are: ${state.users.map((u) => u.name).join(', ')}.`)
  return user
}

/** An app by id or name. */
export function findApp(state: SimState, name: string): SimApp {
  const app = state.apps.find((a) => a.app_id === name) ?? state.apps.find((a) => same(a.name, name))
  if (!app) throw new UsageError(`No app "${name}"; there are: ${state.apps.map((a) => a.name).join(', ')}.`)
  return app
}

/** A user's install of the named app, or of their only app when none is named. */
export function findInstall(state: SimState, user: SimUser, appName: string | undefined): SimInstall {
  const installs = state.installs.filter((i) => i.user_id === user.id)
  if (appName !== undefined) {
    const app = findApp(state, appName)
    const install = installs.find((i) => i.app_id === app.app_id)
    if (!install) throw new UsageError(`${user.name} has not installed ${app.name}.`)
    return install
  }
  if (installs.length === 1) return installs[0] as SimInstall
  if (installs.length === 0) throw new UsageError(`${user.name} has no app installed.`)
  const names = installs.map((i) => appName ?? state.apps.find((a) => a.app_id === i.app_id)?.name ?? i.app_id)
  throw new UsageError(`${user.name} has ${installs.length} apps (${names.join(', ')}): name one with --app.`)
}
