import { installListSchema, type OwnInstall, ownInstallSchema } from '@ringhook/core/api'
import type * as z from 'zod/mini'
import { type CallOptions, type ClientContext, read } from './context.js'
import { requireId, segment } from './validate.js'

/** The answer of `GET /apps/:app_id/installs`: `{ installs }`. */
export type InstallList = z.output<typeof installListSchema>

/** An app's installations, as the service lists them. */
export interface InstallsApi {
  /** GET /apps/:app_id/installs: every installation of an app the key owns. */
  list(appId: string, options?: CallOptions): Promise<InstallList>
  /** GET /apps/:app_id/installs/@me: the key's own installation; checks that `@me` triggers will work. */
  me(appId: string, options?: CallOptions): Promise<OwnInstall>
}

export function installsApi(ctx: ClientContext): InstallsApi {
  const installs = (appId: string) => `/apps/${segment(requireId('appId', appId))}/installs`
  return {
    list: async (appId, options = {}) =>
      read(ctx, { endpoint: '/apps/:app_id/installs', path: installs(appId), schema: installListSchema }, options),
    me: async (appId, options = {}) =>
      read(
        ctx,
        { endpoint: '/apps/:app_id/installs/@me', path: `${installs(appId)}/@me`, schema: ownInstallSchema },
        options,
      ),
  }
}
