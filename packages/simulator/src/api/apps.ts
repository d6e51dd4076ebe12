import { userStateFilterSchema } from '@ringhook/core/api'
import { invalid, notFound } from '../errors.js'
import type { RouteRequest, RouteResult } from '../http/router.js'
import type { Install } from '../model.js'
import type { ApiContext } from './context.js'
import { installById, ownedApp, ownInstall } from './lookup.js'

// GET /v1/apps/:app_id/installs[/@me] and /v1/apps/:app_id/users[/:user_app_id]

const installItem = (install: Install) => ({
  user_app_id: install.user_app_id,
  is_active: install.state === 'active',
  installed_at: install.installed_at,
})

const userItem = (install: Install) => ({
  user_app_id: install.user_app_id,
  state: install.state,
  installed_at: install.installed_at,
})

const ok = (body: unknown): RouteResult => ({ status: 200, body })

export function listInstalls(request: RouteRequest, context: ApiContext): RouteResult {
  const app = ownedApp(context, request.params.app_id as string)
  return ok({ installs: context.sim.state.installsOf(app.app_id).map(installItem) })
}

export function ownInstallation(request: RouteRequest, context: ApiContext): RouteResult {
  const app = ownedApp(context, request.params.app_id as string)
  const install = ownInstall(context, app)
  if (!install) throw notFound(`App "${app.app_id}" is not installed on the ring of this key's user.`)
  return ok({ ...installItem(install), app_id: app.app_id })
}

export function listUsers(request: RouteRequest, context: ApiContext): RouteResult {
  const app = ownedApp(context, request.params.app_id as string)
  const filter = userStateFilterSchema.safeParse(request.query.get('state') ?? 'all')
  if (!filter.success) throw invalid('state: must be active, passive, inactive or all.')
  const installs = context.sim.state.installsOf(app.app_id)
  const users = installs.filter((install) => filter.data === 'all' || install.state === filter.data)
  return ok({ users: users.map(userItem) })
}

export function getUser(request: RouteRequest, context: ApiContext): RouteResult {
  const app = ownedApp(context, request.params.app_id as string)
  const id = request.params.user_app_id as string
  const install = id === '@me' ? ownInstall(context, app) : installById(context, app, id)
  if (!install) throw notFound(`User "${id}" of app "${app.app_id}" was not found.`)
  return ok({
    ...userItem(install),
    app_id: app.app_id,
    permissions: { vibes: install.permissions.vibes, gestures: install.permissions.gestures },
  })
}
