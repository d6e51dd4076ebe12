import { EVENT_NAMES } from '@ringhook/core/api'
import { EXIT, type Io, parseCommand, UsageError } from './io.js'
import {
  DEFAULT_SIM_URL,
  findApp,
  findInstall,
  findUser,
  SIM_TOKEN_ENV,
  SimClient,
  type SimDelivery,
  SimError,
  type SimInstall,
  type SimNotification,
  type SimState,
} from './sim-client.js'
import { DEFAULT_TIMEOUT_MS, TIMEOUT_ENV, TIMEOUT_FLAG, timeoutFrom } from './timeout.js'

/** The verbs that drive a running simulator by names. */
export const DRIVE_VERBS = [
  'users',
  'deliveries',
  'install',
  'activate',
  'passive',
  'deactivate',
  'uninstall',
  'gesture',
  'answer',
  'event',
] as const
export type DriveVerb = (typeof DRIVE_VERBS)[number]

export const driveHelp = `Usage: ringhook <verb> [arguments] [--sim <url>] [--token <token>] [--json]

Drives a running simulator ("ringhook simulate") by names: users by name, id or external user id,
apps by name or id. A user's only app needs no --app.

Verbs:
  users                              list users and their apps
  deliveries [--limit <n>]           list the latest webhook deliveries
  install <user> <app> [--activate]  install an app for a user (app.installed)
  activate <user> [--app <app>]      app.activated
  passive <user> [--app <app>]       control.passive (control apps)
  deactivate <user> [--app <app>]    app.deactivated
  uninstall <user> [--app <app>]     app.uninstalled
  gesture <user> <type> [--app <app>]  the user performs a gesture
  answer <response> [--id <event_id>]  answer the latest pending notification (or the named one):
                                     yes, no, dismiss or emoji:<e>
  event <user> <event> [--app <app>] [--fields <json>]
                                     send any event as is, its fields from its sample unless
                                     --fields sets them; the simulated world does not change.
                                     Events: ${EVENT_NAMES.join(', ')}

Options:
  --sim <url>      the simulator; default ${DEFAULT_SIM_URL}
  --token <token>  its control token; default $${SIM_TOKEN_ENV} (the simulate banner prints it)
  --json           print the simulator's answer as JSON
  --timeout <ms>   give up on a simulator that does not answer after this long;
                   default $${TIMEOUT_ENV}, else ${DEFAULT_TIMEOUT_MS}

Example:
  export ${SIM_TOKEN_ENV}=...   # from the banner
  ringhook gesture ada double_tap`

const FLAGS = {
  sim: { type: 'string' },
  token: { type: 'string' },
  app: { type: 'string' },
  id: { type: 'string' },
  limit: { type: 'string' },
  activate: { type: 'boolean' },
  fields: { type: 'string' },
  json: { type: 'boolean' },
  ...TIMEOUT_FLAG,
} as const

/** Runs one verb against the simulator; exit 3 when it cannot be reached, 1 when it refuses. */
export async function drive(verb: DriveVerb, args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, FLAGS, driveHelp, io)
  if (parsed === null) return EXIT.ok
  const { values, positionals } = parsed
  const url = (values.sim ?? DEFAULT_SIM_URL).replace(/\/+$/, '')
  if (!URL.canParse(url)) throw new UsageError(`--sim "${url}" is not a URL.`)
  const sim = new SimClient(url, values.token ?? process.env[SIM_TOKEN_ENV], timeoutFrom(values.timeout))
  try {
    const result = await VERBS[verb](sim, positionals, values)
    io.out(values.json ? JSON.stringify(result.json, null, 2) : result.text)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof SimError)) throw error
    io.err(`✘ ${error.message}`)
    return error.message.startsWith('No simulator') ? EXIT.unreachable : EXIT.rejected
  }
}

type Values = { app?: string; id?: string; limit?: string; activate?: boolean; fields?: string }
type Outcome = { text: string; json: unknown }
type Verb = (sim: SimClient, args: string[], values: Values) => Promise<Outcome>

function expect(args: string[], names: string[]): string[] {
  if (args.length !== names.length) {
    throw new UsageError(`Expected ${names.length ? names.map((n) => `<${n}>`).join(' ') : 'no arguments'}.`)
  }
  return args
}

const appName = (state: SimState, appId: string) => state.apps.find((a) => a.app_id === appId)?.name ?? appId

/** One line for each delivery a state change queued. */
function queued(deliveries: SimDelivery[]): string {
  return deliveries.map((d) => `  → ${d.event} queued (${d.id})`).join('\n')
}

const lifecycle =
  (action: 'activate' | 'passive' | 'deactivate' | 'uninstall'): Verb =>
  async (sim, args, values) => {
    const [userName] = expect(args, ['user']) as [string]
    const state = await sim.get<SimState>('/state')
    const user = findUser(state, userName)
    const install = findInstall(state, user, values.app)
    const result = await sim.post<{ install: SimInstall; deliveries: SimDelivery[] }>(
      `/installs/${install.user_app_id}/${action}`,
    )
    const now = action === 'uninstall' ? 'uninstalled' : result.install.state
    return {
      text: `✔ ${user.name}'s ${appName(state, install.app_id)}: ${now}\n${queued(result.deliveries)}`.trimEnd(),
      json: result,
    }
  }

const VERBS: Record<DriveVerb, Verb> = {
  async users(sim, args) {
    expect(args, [])
    const state = await sim.get<SimState>('/state')
    const lines = state.users.map((user) => {
      const apps = state.installs
        .filter((i) => i.user_id === user.id)
        .map((i) => `${appName(state, i.app_id)} ${i.state}${i.external_user_id ? ` (${i.external_user_id})` : ''}`)
      return `${user.name.padEnd(12)} ${user.id.padEnd(12)} ${apps.join(', ') || 'no apps'}`
    })
    return { text: lines.join('\n') || 'No users.', json: { users: state.users, installs: state.installs } }
  },

  async deliveries(sim, args, values) {
    expect(args, [])
    const limit = Number(values.limit ?? 20)
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number >= 1.')
    const log = await sim.get<{ deliveries: SimDelivery[] }>('/log')
    const latest = log.deliveries.slice(-limit)
    const lines = latest.map((d) => {
      const last = d.attempts.at(-1)
      const answer = last ? ` last answer ${last.status ?? last.outcome}` : ''
      return `${d.created_at.slice(11, 19)}  ${d.id.padEnd(8)} ${d.event.padEnd(24)} ${d.status} after ${d.attempts.length} attempt(s)${answer}`
    })
    return { text: lines.join('\n') || 'No deliveries yet.', json: { deliveries: latest } }
  },

  async install(sim, args, values) {
    const [userName, app] = expect(args, ['user', 'app']) as [string, string]
    const state = await sim.get<SimState>('/state')
    const user = findUser(state, userName)
    const target = findApp(state, app)
    const result = await sim.post<{ install: SimInstall; deliveries: SimDelivery[] }>(
      `/apps/${target.app_id}/installs`,
      { user_id: user.id, ...(values.activate ? { activate: true } : {}) },
    )
    return {
      text: `✔ ${user.name} installed ${target.name} (user_app_id ${result.install.user_app_id}): ${result.install.state}\n${queued(result.deliveries)}`.trimEnd(),
      json: result,
    }
  },

  activate: lifecycle('activate'),
  passive: lifecycle('passive'),
  deactivate: lifecycle('deactivate'),
  uninstall: lifecycle('uninstall'),

  async gesture(sim, args, values) {
    const [userName, type] = expect(args, ['user', 'type']) as [string, string]
    const state = await sim.get<SimState>('/state')
    const user = findUser(state, userName)
    const install = findInstall(state, user, values.app)
    const result = await sim.post<{ forwarded: boolean; delivery: SimDelivery | null }>(
      `/installs/${install.user_app_id}/gesture`,
      { gesture_type: type },
    )
    const where = appName(state, install.app_id)
    const text = result.forwarded
      ? `✔ ${user.name} did ${type}; sent to ${where}${result.delivery ? ` (${result.delivery.id})` : ''}`
      : `✔ ${user.name} did ${type}; not sent to ${where}: gesture forwarding is off`
    return { text, json: result }
  },

  async answer(sim, args, values) {
    const [response] = expect(args, ['response']) as [string]
    let eventId = values.id
    if (eventId === undefined) {
      const { notifications } = await sim.get<{ notifications: SimNotification[] }>('/notifications?status=pending')
      const latest = notifications.toSorted((a, b) => a.created_at.localeCompare(b.created_at)).at(-1)
      if (!latest) throw new SimError('No notification waits for an answer.')
      eventId = latest.event_id
    }
    const result = await sim.post<{ notification: SimNotification; delivery: SimDelivery | null }>(
      `/notifications/${encodeURIComponent(eventId)}/answer`,
      { response },
    )
    const sent = result.delivery ? `; notification.responded queued (${result.delivery.id})` : ''
    return { text: `✔ Answered ${eventId}: ${response}${sent}`, json: result }
  },

  async event(sim, args, values) {
    const [userName, event] = expect(args, ['user', 'event']) as [string, string]
    const fields = values.fields === undefined ? undefined : parseFields(values.fields)
    const state = await sim.get<SimState>('/state')
    const user = findUser(state, userName)
    const install = findInstall(state, user, values.app)
    const result = await sim.post<{ delivery: SimDelivery }>(`/installs/${install.user_app_id}/events`, {
      event,
      ...(fields === undefined ? {} : { fields }),
    })
    return {
      text: `✔ Sent ${event} to ${user.name}'s ${appName(state, install.app_id)} (${result.delivery.id})`,
      json: result,
    }
  },
}

function parseFields(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new UsageError('--fields must be a JSON object, e.g. \'{"data":{"slot":2}}\'.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--fields must be a JSON object, e.g. \'{"data":{"slot":2}}\'.')
  return value as Record<string, unknown>
}
