import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EventName } from '@ringhook/core'
import { resolveConfig, type SimulatorOptions } from './config.js'
import { Engine } from './engine.js'
import type { FaultName, FaultSettings, FaultSettingsInput } from './faults/kinds.js'
import type { SimReport } from './faults/report.js'
import type { GestureResult } from './gestures.js'
import { createListener } from './http/server.js'
import type {
  CreateAppInput,
  CreateKeyInput,
  CreateUserInput,
  InstallInput,
  UpdateAppInput,
  UpdateInstallInput,
  UpdateUserInput,
} from './inputs.js'
import type { LifecycleResult } from './lifecycle.js'
import type { EntryListener, LogEntry, LogQuery, LogView } from './log.js'
import type { App, Delivery, Install, Key, Notification, Snapshot, User, Vibe } from './model.js'
import type { AnswerResult } from './notifications.js'
import type { ResendResult } from './resend.js'
import { type DemoData, seedDemo } from './seed.js'
import type { SendEventResult } from './send-event.js'

/** @deprecated Use {@link ActionOptions} (`WaitOptions` is `@ringhook/client`'s name for polling); removed in 0.3.0. */
export type WaitOptions = ActionOptions

/** Options of an action that sends webhooks. */
export interface ActionOptions {
  /** Resolve only once the action's webhooks have settled (delivered, failed or skipped), retries included. */
  wait?: boolean
}

/** A running simulator of the whole service. Every method mirrors a route of the control API. */
export interface Simulator {
  /**
   * `http://127.0.0.1:<port>`: the control API lives under `/_sim/`, and this is the base URL to give
   * `@ringhook/client` (`RING_BASE_URL`), which adds `/v1` itself.
   */
  readonly url: string
  /** `<url>/v1`: for calling the endpoints directly with fetch or curl; not a client's base URL. */
  readonly apiUrl: string
  /** The port it listens on (the one picked, when started with port 0). */
  readonly port: number
  /**
   * This run's token: state-changing control calls over HTTP (`POST`/`PATCH /_sim/...`) send it in
   * the `x-ringhook-sim-token` header. The methods below need none.
   */
  readonly token: string
  /** The Node server, for advanced use; `close()` stops it. */
  readonly server: Server
  /** The demo data, when started with `seed`. */
  readonly demo: DemoData | undefined

  /** API keys, as the apps page creates them. */
  readonly keys: {
    /** A new API key: `owner` groups keys that see the same apps; `user_id` links it to a user account. */
    create(input?: CreateKeyInput): Key
    /** Links the key to a user account (what `@me` means), or unlinks it with null. */
    link(keyId: string, userId: string | null): Key
  }
  /** The users and their rings. */
  readonly users: {
    /** A new user: ring on and companion app open unless `input` says otherwise. */
    create(input?: CreateUserInput): User
    /** Renames the user, turns the ring off or on, closes or opens the companion app. */
    update(userId: string, input: UpdateUserInput): User
  }
  /** Apps on the apps page. */
  readonly apps: {
    /** A new app, owned by the key's developer account; a `control` app unless `type` says otherwise. */
    create(input: CreateAppInput): App
    /** A changed webhook URL regenerates the secret. */
    update(appId: string, input: UpdateAppInput): App
    /** A new webhook secret for the app: every attempt from now on is signed with it. */
    regenerateSecret(appId: string): App
    /** The app as it is now, secret included. */
    get(appId: string): App
  }
  /** The user adds the app: `app.installed`, then `app.activated` with `activate: true`. */
  install(appId: string, userId: string, options?: Omit<InstallInput, 'user_id'>): Promise<LifecycleResult>
  /** The user activates the app (from inactive or passive): `app.activated`. */
  activate(userAppId: string, options?: ActionOptions): Promise<LifecycleResult>
  /** A control app goes passive (from active): `control.passive`. */
  passive(userAppId: string, options?: ActionOptions): Promise<LifecycleResult>
  /** The user deactivates the app (from active or passive): `app.deactivated`. */
  deactivate(userAppId: string, options?: ActionOptions): Promise<LifecycleResult>
  /** The user removes the app: `app.deactivated` first if it was active or passive, then `app.uninstalled`. */
  uninstall(userAppId: string, options?: ActionOptions): Promise<LifecycleResult>
  /** Permissions (`vibes`, `gestures` forwarding) and app-level barriers (`muted`, `priority_slot`). */
  updateInstall(userAppId: string, input: UpdateInstallInput): Install
  /** The user performs a gesture on the ring. */
  gesture(userAppId: string, gestureType: string, options?: ActionOptions): Promise<GestureResult>
  /** The user answers a notification: `yes`, `no`, `dismiss` or `emoji:<e>`. */
  answer(eventId: string, response: string, options?: ActionOptions): Promise<AnswerResult>
  /**
   * Sends any documented event to the install's app, its own fields the sample of core's list of
   * events unless `fields` sets them (`data` merged). The simulated world does not change: a
   * gesture, a lifecycle change or an answer has its own action above.
   */
  sendEvent(
    userAppId: string,
    event: EventName,
    fields?: Record<string, unknown>,
    options?: ActionOptions,
  ): Promise<SendEventResult>
  /** Resolves once the next notification (a trigger with a response_config) is created. */
  nextNotification(): Promise<Notification>

  /** What happened, as the control API's log reports it. */
  readonly log: {
    /** Log entries, oldest first; see {@link LogQuery}. */
    entries(query?: LogQuery): LogEntry[]
    /** Every delivery kept, with its attempts. */
    deliveries(): Delivery[]
    /** Every vibe kept. */
    vibes(): Vibe[]
    /** Every notification. */
    notifications(): Notification[]
    /** Entries and aggregates in one, as `GET /_sim/log` answers. */
    view(query?: LogQuery): LogView
  }
  /** The service's bad days: faults injected into deliveries (see `FAULT_NAMES` and `FAULT_PROFILES`). */
  readonly faults: {
    /** Replaces the probabilities: a profile, per-fault rates over it, and optionally a new seed. */
    set(input: FaultSettingsInput): FaultSettings
    /** Injects these faults into the next delivery (or attempt) each applies to. */
    next(faults: FaultName | readonly FaultName[]): FaultSettings
    /** No fault any more. */
    clear(): FaultSettings
    /** The faults in force. */
    get(): FaultSettings
  }
  /**
   * The service's verdict: every delivery acknowledged in the end (or why it was given up), gesture
   * retries answered with the same vibe, answers within the limit, the timestamp tolerance kept.
   */
  report(): SimReport
  /** Sends one delivery again, as a new delivery with the same payload, newly signed. */
  resend(deliveryId: string, options?: ActionOptions): Promise<ResendResult>
  /** Sends again every delivery that failed at or after `since`. */
  resendFailed(since: Date | string, options?: ActionOptions): Promise<ResendResult>
  /** Calls `listener` with every new log entry; returns the unsubscribe function. */
  on(event: 'entry', listener: EntryListener): () => void
  /** Resolves once no delivery is pending or waiting for a retry. */
  idle(): Promise<void>
  /** Keys, users, apps, installs and settings, secrets included. */
  state(): Snapshot
  /** Forgets everything but the settings. */
  reset(): void
  /** Stops the server, every timer and every pending delivery. */
  close(): Promise<void>
}

/**
 * Starts the simulator: the service's API and signed webhook delivery on a real HTTP server.
 *
 * @example
 * const sim = await createSimulator({ timeScale: 0.001 })
 * const key = sim.keys.create()
 * const app = sim.apps.create({ key_id: key.id, webhook_url: 'http://127.0.0.1:3000/webhooks' })
 * const user = sim.users.create({ name: 'Ada' })
 * const { install } = await sim.install(app.app_id, user.id, { activate: true, wait: true })
 * const { vibe } = await sim.gesture(install.user_app_id, 'double_tap', { wait: true })
 * await sim.close()
 */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const config = resolveConfig(options)
  const engine = new Engine(config)
  const server = createServer(
    createListener(engine, { hosts: config.allowedHosts, token: config.token }, options.handler),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  const url = `http://${host}:${port}`
  engine.ctx.settings.base_url = url
  engine.ctx.settings.api_url = `${url}/v1`
  const demo = options.seed ? seedDemo(engine, options.seed === true ? {} : options.seed) : undefined
  return facade(engine, server, { url, port, token: config.token }, demo)
}

const copy = <T>(value: T): T => structuredClone(value)

function facade(
  engine: Engine,
  server: Server,
  { url, port, token }: { url: string; port: number; token: string },
  demo: DemoData | undefined,
): Simulator {
  const { ctx } = engine
  const { faults } = engine.deliveries
  const waitInput = (options: ActionOptions = {}) => ({ ...(options.wait === undefined ? {} : { wait: options.wait }) })
  const transition =
    (action: 'activate' | 'passive' | 'deactivate' | 'uninstall') =>
    async (userAppId: string, options?: ActionOptions) =>
      copy(await engine.transition(userAppId, action, waitInput(options)))
  let closing: Promise<void> | undefined

  return {
    url,
    apiUrl: `${url}/v1`,
    port,
    token,
    server,
    demo,
    keys: {
      create: (input) => copy(engine.createKey(input)),
      link: (keyId, userId) => copy(engine.updateKey(keyId, { user_id: userId })),
    },
    users: {
      create: (input) => copy(engine.createUser(input)),
      update: (userId, input) => copy(engine.updateUser(userId, input)),
    },
    apps: {
      create: (input) => copy(engine.createApp(input)),
      update: (appId, input) => copy(engine.updateApp(appId, input)),
      regenerateSecret: (appId) => copy(engine.regenerateSecret(appId)),
      get: (appId) => copy(ctx.state.app(appId)),
    },
    install: async (appId, userId, options = {}) => copy(await engine.install(appId, { ...options, user_id: userId })),
    activate: transition('activate'),
    passive: transition('passive'),
    deactivate: transition('deactivate'),
    uninstall: transition('uninstall'),
    updateInstall: (userAppId, input) => copy(engine.updateInstall(userAppId, input)),
    gesture: async (userAppId, gestureType, options) =>
      copy(await engine.gesture(userAppId, { gesture_type: gestureType, ...waitInput(options) })),
    answer: async (eventId, response, options) =>
      copy(await engine.answer(eventId, { response: response as never, ...waitInput(options) })),
    sendEvent: async (userAppId, event, fields, options) =>
      copy(await engine.sendEvent(userAppId, { event, ...(fields ? { fields } : {}), ...waitInput(options) })),
    nextNotification: () =>
      new Promise((resolve) => {
        const stop = ctx.log.subscribe((entry) => {
          if (entry.type !== 'notification.created') return
          stop()
          resolve(copy(ctx.state.notification(entry.event_id)))
        })
      }),
    log: {
      entries: (query) => copy(ctx.log.entries(query)),
      deliveries: () => copy([...ctx.state.deliveries.values()]),
      vibes: () => copy(ctx.state.vibes),
      notifications: () => copy([...ctx.state.notifications.values()]),
      view: (query) => engine.logView(query),
    },
    faults: {
      set: (input) => faults.set(input),
      next: (names) => faults.next(names),
      clear: () => faults.clear(),
      get: () => faults.settings(),
    },
    report: () => engine.report(),
    resend: async (deliveryId, options) => copy(await engine.resend(deliveryId, waitInput(options))),
    resendFailed: async (since, options) =>
      copy(
        await engine.resendFailed({
          failed_since: typeof since === 'string' ? since : since.toISOString(),
          ...waitInput(options),
        }),
      ),
    on: (_event, listener) => ctx.log.subscribe(listener),
    idle: () => engine.deliveries.idle(),
    state: () => engine.snapshot(),
    reset: () => engine.reset(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        engine.close()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
