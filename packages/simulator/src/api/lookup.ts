import { invalid, notFound, SimulatorError } from '../errors.js'
import { isUuid } from '../ids.js'
import type { App, Install } from '../model.js'
import type { ApiContext } from './context.js'

/** An app the caller owns; another owner's app is "not found", as the service answers. */
export function ownedApp({ sim, key }: ApiContext, appId: string): App {
  const app = sim.state.apps.get(appId)
  if (!app || app.owner !== key.owner) throw notFound(`App "${appId}" was not found.`)
  return app
}

/** The user account linked to the key, which `@me` means; 400 when there is none. */
export function meUserId({ key }: ApiContext): string {
  if (key.user_id === null) {
    throw new SimulatorError(
      400,
      'key_not_linked',
      '"@me" cannot be resolved: this API key is not linked to a user account.',
    )
  }
  return key.user_id
}

/** The caller's own install of an app, or undefined. */
export function ownInstall(context: ApiContext, app: App): Install | undefined {
  return context.sim.state.installFor(app.app_id, meUserId(context))
}

/** One install of an app by user-app id; a malformed id is 400 before anything is looked up. */
export function installById(context: ApiContext, app: App, userAppId: string): Install | undefined {
  if (!isUuid(userAppId)) throw invalid(`user_app_id "${userAppId}" is neither "@me" nor a user-app id (UUID).`)
  const install = context.sim.state.installs.get(userAppId)
  return install?.app_id === app.app_id ? install : undefined
}
