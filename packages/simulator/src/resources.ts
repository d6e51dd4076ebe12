import type { SimContext } from './context.js'
import { conflict } from './errors.js'
import {
  type CreateAppInput,
  type CreateKeyInput,
  type CreateUserInput,
  createAppInput,
  createKeyInput,
  createUserInput,
  parseInput,
  type UpdateAppInput,
  type UpdateInstallInput,
  type UpdateKeyInput,
  type UpdateUserInput,
  updateAppInput,
  updateInstallInput,
  updateKeyInput,
  updateUserInput,
} from './inputs.js'
import type { PublicApp, PublicKey, StateEntry, StateEntryKind } from './log.js'
import type { App, Install, Key, Snapshot, User } from './model.js'

// Keys, users, apps and install settings: what the apps page and the users' phones change.

export const publicKey = ({ token: _token, ...key }: Key): PublicKey => key
export const publicApp = ({ secret: _secret, ...app }: App): PublicApp => app

/** Logs a change of state; secrets and tokens never reach the log. */
export function logState(ctx: SimContext, change: StateEntryKind, id: string | null, object: StateEntry['object']) {
  ctx.log.append({ type: 'state', change, id, object: object === null ? null : structuredClone(object) })
}

export function createKey(ctx: SimContext, raw: CreateKeyInput = {}): Key {
  const input = parseInput(createKeyInput, raw)
  if (input.user_id) ctx.state.user(input.user_id)
  const id = input.id ?? ctx.ids.next('key')
  if (ctx.state.keys.has(id)) throw conflict(`A key with id "${id}" exists.`)
  if (input.token && ctx.state.keyByToken(input.token)) throw conflict('A key with this token exists.')
  const key: Key = {
    id,
    token: input.token ?? ctx.ids.token(),
    owner: input.owner ?? ctx.ids.next('dev'),
    user_id: input.user_id ?? null,
    created_at: ctx.iso(),
  }
  ctx.state.keys.set(id, key)
  logState(ctx, 'key.created', id, publicKey(key))
  return key
}

export function updateKey(ctx: SimContext, id: string, raw: UpdateKeyInput): Key {
  const key = ctx.state.key(id)
  const input = parseInput(updateKeyInput, raw)
  if (input.user_id) ctx.state.user(input.user_id)
  key.user_id = input.user_id
  logState(ctx, 'key.updated', id, publicKey(key))
  return key
}

export function createUser(ctx: SimContext, raw: CreateUserInput = {}): User {
  const input = parseInput(createUserInput, raw)
  const id = input.id ?? ctx.ids.next('usr')
  if (ctx.state.users.has(id)) throw conflict(`A user with id "${id}" exists.`)
  const user: User = {
    id,
    name: input.name ?? `User ${ctx.state.users.size + 1}`,
    ring_off: input.ring_off ?? false,
    companion_closed: input.companion_closed ?? false,
    created_at: ctx.iso(),
  }
  ctx.state.users.set(id, user)
  logState(ctx, 'user.created', id, user)
  return user
}

export function updateUser(ctx: SimContext, id: string, raw: UpdateUserInput): User {
  const user = ctx.state.user(id)
  const input = parseInput(updateUserInput, raw)
  Object.assign(user, definedOnly(input))
  logState(ctx, 'user.updated', id, user)
  return user
}

export function createApp(ctx: SimContext, raw: CreateAppInput): App {
  const input = parseInput(createAppInput, raw)
  const key = ctx.state.key(input.key_id)
  const appId = input.app_id ?? ctx.ids.appId()
  if (ctx.state.apps.has(appId)) throw conflict(`An app with id "${appId}" exists.`)
  const app: App = {
    app_id: appId,
    name: input.name ?? `App ${ctx.state.apps.size + 1}`,
    type: input.type ?? 'control',
    owner: key.owner,
    webhook_url: input.webhook_url ?? null,
    // Generated at creation (spec section 5); a chosen one lets a demo receiver be configured first.
    secret: input.secret ?? ctx.ids.secret(),
    created_at: ctx.iso(),
  }
  ctx.state.apps.set(appId, app)
  logState(ctx, 'app.created', appId, publicApp(app))
  return app
}

/** Changes an app; a new webhook URL regenerates the secret, as the service does. */
export function updateApp(ctx: SimContext, appId: string, raw: UpdateAppInput): App {
  const app = ctx.state.app(appId)
  const input = parseInput(updateAppInput, raw)
  if (input.name !== undefined) app.name = input.name
  const urlChanged = input.webhook_url !== undefined && input.webhook_url !== app.webhook_url
  if (urlChanged) app.webhook_url = input.webhook_url ?? null
  logState(ctx, 'app.updated', appId, publicApp(app))
  if (input.secret !== undefined) return regenerateSecret(ctx, appId, input.secret)
  return urlChanged && !input.keep_secret ? regenerateSecret(ctx, appId) : app
}

export function regenerateSecret(ctx: SimContext, appId: string, secret?: string): App {
  const app = ctx.state.app(appId)
  app.secret = secret ?? ctx.ids.secret()
  logState(ctx, 'app.secret_regenerated', appId, publicApp(app))
  return app
}

export function updateInstall(ctx: SimContext, userAppId: string, raw: UpdateInstallInput): Install {
  const install = ctx.state.install(userAppId)
  const input = parseInput(updateInstallInput, raw)
  const { permissions, ...flags } = input
  install.permissions = { ...install.permissions, ...definedOnly(permissions ?? {}) }
  Object.assign(install, definedOnly(flags))
  logState(ctx, 'install.updated', userAppId, install)
  return install
}

export function snapshot(ctx: SimContext): Snapshot {
  const { state } = ctx
  return structuredClone({
    settings: ctx.settings,
    keys: [...state.keys.values()],
    users: [...state.users.values()],
    apps: [...state.apps.values()],
    installs: [...state.installs.values()],
  })
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
