import { Router } from '../http/router.js'
import { getUser, listInstalls, listUsers, ownInstallation } from './apps.js'
import type { ApiContext } from './context.js'
import { pollResponse } from './events.js'
import { patterns, trigger } from './vibes.js'

/** The seven endpoints of the service's API, as paths without the `/v1` prefix. */
export function apiRouter(): Router<ApiContext> {
  return new Router<ApiContext>()
    .add('GET', '/apps/:app_id/installs/@me', ownInstallation)
    .add('GET', '/apps/:app_id/installs', listInstalls)
    .add('GET', '/apps/:app_id/users', listUsers)
    .add('GET', '/apps/:app_id/users/:user_app_id', getUser)
    .add('GET', '/vibes/patterns', patterns)
    .add('POST', '/vibes/trigger', trigger)
    .add('GET', '/events/:event_id/response', pollResponse)
}
