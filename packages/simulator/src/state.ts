import { notFound } from './errors.js'
import type { App, Delivery, Install, Key, Notification, User, Vibe } from './model.js'

/** Everything the simulator holds, in memory. Lookups throw the control API's 404. */
export class SimState {
  readonly keys = new Map<string, Key>()
  readonly users = new Map<string, User>()
  readonly apps = new Map<string, App>()
  readonly installs = new Map<string, Install>()
  readonly notifications = new Map<string, Notification>()
  readonly deliveries = new Map<string, Delivery>()
  readonly vibes: Vibe[] = []
  /** Every event id a trigger issued, with the app it belongs to (for polling). */
  readonly events = new Map<string, { app_id: string; user_app_id: string }>()

  constructor(private readonly limit: number) {}

  key(id: string): Key {
    return found(this.keys.get(id), `No key with id "${id}".`)
  }

  keyByToken(token: string): Key | undefined {
    for (const key of this.keys.values()) if (key.token === token) return key
    return undefined
  }

  user(id: string): User {
    return found(this.users.get(id), `No user with id "${id}".`)
  }

  app(id: string): App {
    return found(this.apps.get(id), `No app with id "${id}".`)
  }

  install(userAppId: string): Install {
    return found(this.installs.get(userAppId), `No install with user_app_id "${userAppId}".`)
  }

  notification(eventId: string): Notification {
    return found(this.notifications.get(eventId), `No notification with event_id "${eventId}".`)
  }

  delivery(id: string): Delivery {
    return found(this.deliveries.get(id), `No delivery with id "${id}".`)
  }

  installsOf(appId: string): Install[] {
    return [...this.installs.values()].filter((install) => install.app_id === appId)
  }

  installFor(appId: string, userId: string): Install | undefined {
    return this.installsOf(appId).find((install) => install.user_id === userId)
  }

  addDelivery(delivery: Delivery): void {
    this.deliveries.set(delivery.id, delivery)
    // Forget the oldest settled deliveries beyond the limit; pending ones are still needed.
    if (this.deliveries.size <= this.limit) return
    for (const [id, old] of this.deliveries) {
      if (this.deliveries.size <= this.limit) break
      if (old.settled_at !== null) this.deliveries.delete(id)
    }
  }

  addEvent(eventId: string, appId: string, userAppId: string): void {
    this.events.set(eventId, { app_id: appId, user_app_id: userAppId })
    if (this.events.size > this.limit) this.events.delete(this.events.keys().next().value as string)
  }

  addVibe(vibe: Vibe): void {
    this.vibes.push(vibe)
    if (this.vibes.length > this.limit) this.vibes.splice(0, this.vibes.length - this.limit)
  }

  clear(): void {
    for (const map of [
      this.keys,
      this.users,
      this.apps,
      this.installs,
      this.notifications,
      this.deliveries,
      this.events,
    ]) {
      map.clear()
    }
    this.vibes.length = 0
  }
}

function found<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw notFound(message)
  return value
}
