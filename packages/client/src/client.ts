import type { ClientContext } from './context.js'
import { createResponseLink } from './dedup-link.js'
import { type EventsApi, eventsApi } from './events.js'
import { type InstallsApi, installsApi } from './installs.js'
import { type ClientOptions, resolveOptions } from './options.js'
import { createTransport } from './transport.js'
import { type UsersApi, usersApi } from './users.js'
import { type VibesApi, vibesApi } from './vibes.js'

/** Everything an app does towards the service. */
export interface RinghookClient {
  /** `/apps/:app_id/installs`: an app's installations, and the key's own. */
  readonly installs: InstallsApi
  /** `/apps/:app_id/users`: the app's users and their state. */
  readonly users: UsersApi
  /** `/vibes`: patterns, and triggers in webhook, poll and await modes. */
  readonly vibes: VibesApi
  /** `/events/:event_id/response`: the answer to a trigger, read once or polled for. */
  readonly events: EventsApi
}

/**
 * Creates a client for the service's API.
 *
 * @example
 * const client = createClient({ apiKey: process.env.RING_API_KEY!, baseUrl: 'https://api.example.com' })
 * const { users } = await client.users.list('app_123', { state: 'active' })
 */
export function createClient(options: ClientOptions): RinghookClient {
  const resolved = resolveOptions(options)
  const ctx: ClientContext = {
    options: resolved,
    send: createTransport(resolved),
    link: options.dedup ? createResponseLink(options.dedup, resolved.logger) : undefined,
  }
  return Object.freeze({
    installs: installsApi(ctx),
    users: usersApi(ctx),
    vibes: vibesApi(ctx),
    events: eventsApi(ctx),
  })
}
