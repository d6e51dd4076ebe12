import type { SeedOptions } from './config.js'
import type { Engine } from './engine.js'
import { addInstall } from './lifecycle.js'
import type { App, Install, Key, User } from './model.js'

// Declared with the options it is one of, so that the config does not import the seed (nor, through it, the engine).
export type { SeedOptions } from './config.js'

/** What `seed` created; fixed ids so scripts and docs can name them. */
export interface DemoData {
  /** `key_demo`, token {@link DEMO_API_KEY}, linked to Ada's account. */
  key: Key
  /** The demo key's apps. */
  apps: {
    /** `app_demo_control`, a control app. */
    control: App
    /** `app_demo_notify`, a preferred_notification app. */
    notifications: App
  }
  /** Four users; Margaret's ring is off. */
  users: {
    /** `usr_ada`. */
    ada: User
    /** `usr_grace`. */
    grace: User
    /** `usr_linus`. */
    linus: User
    /** `usr_margaret`, ring off. */
    margaret: User
  }
  /** Installs of both apps, in every state. */
  installs: {
    /** Ada's install of the control app: active, external user id `demo-ada`. */
    ada: Install
    /** Grace's install of the control app: passive. */
    grace: Install
    /** Linus's install of the control app: inactive. */
    linus: Install
    /** Margaret's install of the control app: active, but her ring is off. */
    margaret: Install
    /** Ada's install of the notifications app: active, with a priority slot, external user id `demo-ada`. */
    adaNotifications: Install
    /** Grace's install of the notifications app: active, without a priority slot. */
    graceNotifications: Install
  }
}

/** The demo API key's token: a local simulator's, printed by `ringhook simulate`. */
export const DEMO_API_KEY = 'rk_sim_demo_key'

/**
 * Demo data: one key linked to Ada, a control app and a preferred_notification app owned by it,
 * and users in every state. Nothing is sent while seeding.
 */
export function seedDemo(engine: Engine, options: SeedOptions = {}): DemoData {
  const user = (id: string, name: string, extra = {}) => engine.createUser({ id, name, ...extra })
  const users = {
    ada: user('usr_ada', 'Ada'),
    grace: user('usr_grace', 'Grace'),
    linus: user('usr_linus', 'Linus'),
    margaret: user('usr_margaret', 'Margaret', { ring_off: true }),
  }
  const key = engine.createKey({ id: 'key_demo', token: DEMO_API_KEY, owner: 'dev_demo', user_id: users.ada.id })
  const app = (app_id: string, name: string, type: App['type']) =>
    engine.createApp({
      key_id: key.id,
      app_id,
      name,
      type,
      ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}),
      ...(options.secret ? { secret: options.secret } : {}),
    })
  const apps = {
    control: app('app_demo_control', 'Demo control', 'control'),
    notifications: app('app_demo_notify', 'Demo notifications', 'preferred_notification'),
  }
  const add = (target: App, who: User, uuid: string, state: Install['state'], external?: string) =>
    addInstall(engine.ctx, target, who, { user_app_id: uuid, state, external_user_id: external ?? null })
  const installs = {
    ada: add(apps.control, users.ada, 'a0a0a0a0-0000-4000-8000-000000000001', 'active', 'demo-ada'),
    grace: add(apps.control, users.grace, 'a0a0a0a0-0000-4000-8000-000000000002', 'passive'),
    linus: add(apps.control, users.linus, 'a0a0a0a0-0000-4000-8000-000000000003', 'inactive'),
    margaret: add(apps.control, users.margaret, 'a0a0a0a0-0000-4000-8000-000000000004', 'active'),
    adaNotifications: add(apps.notifications, users.ada, 'b0b0b0b0-0000-4000-8000-000000000001', 'active', 'demo-ada'),
    graceNotifications: add(apps.notifications, users.grace, 'b0b0b0b0-0000-4000-8000-000000000002', 'active'),
  }
  engine.updateInstall(installs.graceNotifications.user_app_id, { priority_slot: false })
  return structuredClone({
    key,
    apps,
    users,
    installs: { ...installs, graceNotifications: engine.ctx.state.install(installs.graceNotifications.user_app_id) },
  })
}
