import {
  type UserDetail,
  type UserStateFilter,
  userDetailSchema,
  userListSchema,
  userStateFilterSchema,
} from '@ringhook/core/api'
import type * as z from 'zod/mini'
import { type CallOptions, type ClientContext, read } from './context.js'
import { parseInput, requireId, segment } from './validate.js'

/** The answer of `GET /apps/:app_id/users`: `{ users }`. */
export type UserList = z.output<typeof userListSchema>

export interface UserListOptions extends CallOptions {
  /** `active`, `passive`, `inactive` or `all`; the service's default is `all`. */
  state?: UserStateFilter
}

/** The app's users: the installs the service knows, with their state and permissions. */
export interface UsersApi {
  /** GET /apps/:app_id/users: the app's users and their states. */
  list(appId: string, options?: UserListOptions): Promise<UserList>
  /** GET /apps/:app_id/users/:user_app_id: one user with permissions; `'@me'` for the key's own account. */
  get(appId: string, userAppId: string, options?: CallOptions): Promise<UserDetail>
}

export function usersApi(ctx: ClientContext): UsersApi {
  const users = (appId: string) => `/apps/${segment(requireId('appId', appId))}/users`
  return {
    list: async (appId, options = {}) => {
      const spec = { endpoint: '/apps/:app_id/users', path: users(appId), schema: userListSchema }
      if (options.state === undefined) return read(ctx, spec, options)
      const state = parseInput(userStateFilterSchema, options.state, 'state')
      return read(ctx, { ...spec, query: { state } }, options)
    },
    get: async (appId, userAppId, options = {}) =>
      read(
        ctx,
        {
          endpoint: '/apps/:app_id/users/:user_app_id',
          path: `${users(appId)}/${segment(requireId('userAppId', userAppId))}`,
          schema: userDetailSchema,
        },
        options,
      ),
  }
}
