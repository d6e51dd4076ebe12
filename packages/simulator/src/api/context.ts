import type { SimContext } from '../context.js'
import type { Key } from '../model.js'
import type { Notifications } from '../notifications.js'

/** What an API route gets: the simulator, and the caller's key (already authenticated and counted). */
export interface ApiContext {
  sim: SimContext
  notifications: Notifications
  key: Key
}
