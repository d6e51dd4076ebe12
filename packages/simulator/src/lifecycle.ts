import { type LifecycleEventName, stateAfter } from '@ringhook/core/internal'
import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { conflict, invalidTransition } from './errors.js'
import { type InstallInput, installInput, parseInput, type WaitInput, waitInput } from './inputs.js'
import type { App, Delivery, Install, User } from './model.js'
import { webhookPayload } from './payloads.js'
import { logState } from './resources.js'

/** What a user (or, for `passive`, a control app) does to an install; each sends its webhooks. */
export type LifecycleAction = 'activate' | 'passive' | 'deactivate' | 'uninstall'

/** An install after a lifecycle action, and the webhooks the action sent. */
export interface LifecycleResult {
  /** The install as the action left it (as it was, for `uninstall`). */
  install: Install
  /** The webhooks sent, in the order sent. */
  deliveries: Delivery[]
}

/** Adds an install without sending anything (seeding); `install()` is the user's action. */
export function addInstall(
  ctx: SimContext,
  app: App,
  user: User,
  options: { user_app_id?: string; external_user_id?: string | null; state?: Install['state'] } = {},
): Install {
  if (ctx.state.installFor(app.app_id, user.id)) throw conflict(`${user.id} has already installed ${app.app_id}.`)
  const userAppId = options.user_app_id ?? ctx.ids.userAppId()
  if (ctx.state.installs.has(userAppId)) throw conflict(`An install with user_app_id "${userAppId}" exists.`)
  const install: Install = {
    user_app_id: userAppId,
    app_id: app.app_id,
    user_id: user.id,
    state: options.state ?? 'inactive',
    installed_at: ctx.iso(),
    external_user_id: options.external_user_id ?? null,
    permissions: { vibes: true, gestures: true },
    muted: false,
    priority_slot: true,
  }
  ctx.state.installs.set(userAppId, install)
  logState(ctx, 'install.created', userAppId, install)
  return install
}

/** A user adds an app: `app.installed`, then `app.activated` when `activate` is set. */
export async function install(
  ctx: SimContext,
  deliveries: Deliveries,
  appId: string,
  raw: InstallInput,
): Promise<LifecycleResult> {
  const input = parseInput(installInput, raw)
  const app = ctx.state.app(appId)
  const added = addInstall(ctx, app, ctx.state.user(input.user_id), {
    ...(input.user_app_id === undefined ? {} : { user_app_id: input.user_app_id }),
    external_user_id: input.external_user_id ?? null,
  })
  const sent = [deliveries.send(app, webhookPayload(ctx, added, 'app.installed', {}))]
  if (input.activate) sent.push(...changeState(ctx, deliveries, added, 'activate'))
  return settle(deliveries, { install: added, deliveries: sent }, input.wait)
}

/** Activate, passive, deactivate or uninstall, with the webhooks in the spec's order. */
export async function transition(
  ctx: SimContext,
  deliveries: Deliveries,
  userAppId: string,
  action: LifecycleAction,
  raw: WaitInput = {},
): Promise<LifecycleResult> {
  const input = parseInput(waitInput, raw)
  const target = ctx.state.install(userAppId)
  const sent = changeState(ctx, deliveries, target, action)
  return settle(deliveries, { install: target, deliveries: sent }, input.wait)
}

function changeState(ctx: SimContext, deliveries: Deliveries, target: Install, action: LifecycleAction): Delivery[] {
  const app = ctx.state.app(target.app_id)
  // The state each event leads to is core's list's (`leadsTo`); `app.uninstalled` removes the install.
  const send = (event: Exclude<LifecycleEventName, 'app.installed' | 'app.uninstalled'>) => {
    target.state = stateAfter(event) as Install['state']
    logState(ctx, 'install.updated', target.user_app_id, target)
    return deliveries.send(app, webhookPayload(ctx, target, event, {}))
  }
  const from = target.state
  switch (action) {
    case 'activate':
      if (from === 'active') throw invalidTransition('The app is already active.')
      return [send('app.activated')]
    case 'passive':
      if (app.type !== 'control') throw invalidTransition('Only control apps have a passive state.')
      if (from !== 'active') throw invalidTransition(`Only an active app can become passive; it is ${from}.`)
      return [send('control.passive')]
    case 'deactivate':
      if (from === 'inactive') throw invalidTransition('The app is not active.')
      return [send('app.deactivated')]
    case 'uninstall': {
      const sent = from === 'inactive' ? [] : [send('app.deactivated')]
      sent.push(deliveries.send(app, webhookPayload(ctx, target, 'app.uninstalled', {})))
      ctx.state.installs.delete(target.user_app_id)
      logState(ctx, 'install.removed', target.user_app_id, target)
      return sent
    }
  }
}

async function settle(deliveries: Deliveries, result: LifecycleResult, wait: boolean | undefined) {
  if (wait) await Promise.all(result.deliveries.map((delivery) => deliveries.settled(delivery)))
  return result
}
