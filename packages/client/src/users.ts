import {
  type UserDetail,
  type UserStateFilter,
  userDetailSchema,
  userListSchema,
  userStateFilterSchema,
} from '@ringhook/core/api'
import type * as z from 'zod/mini'
import type { CallOptions, ClientContext } from './context.js'
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
  const get = <S extends z.ZodMiniType>(
    endpoint: string,
    path: string,
    schema: S,
    options: CallOptions,
    query?: Record<string, string>,
  ) =>
    ctx.send({
      method: 'GET',
      endpoint,
      path,
      schema,
      retry: 'read',
      timeoutMs: ctx.options.timeoutMs,
      signal: options.signal,
      ...(query ? { query } : {}),
    })
  return {
    list: async (appId, options = {}) => {
      const path = `/apps/${segment(requireId('appId', appId))}/users`
      const endpoint = '/apps/:app_id/users'
      if (options.state === undefined) return get(endpoint, path, userListSchema, options)
      const state = parseInput(userStateFilterSchema, options.state, 'state')
      return get(endpoint, path, userListSchema, options, { state })
    },
    get: async (appId, userAppId, options = {}) =>
      get(
        '/apps/:app_id/users/:user_app_id',
        `/apps/${segment(requireId('appId', appId))}/users/${segment(requireId('userAppId', userAppId))}`,
        userDetailSchema,
        options,
      ),
  }
}
