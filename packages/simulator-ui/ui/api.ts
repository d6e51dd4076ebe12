import type {
  ApiErrorBody,
  Delivery,
  FaultName,
  FaultProfile,
  FaultSettings,
  Install,
  LogView,
  Notification,
  Snapshot,
  User,
} from '@ringhook/simulator/control-api'

export type LifecycleAction = 'activate' | 'passive' | 'deactivate' | 'uninstall'

/** An error answer of the control API, with its code (`invalid_transition`, `conflict`, ...). */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'SimError'
  }
}

/**
 * Every control API call the page makes, one method per route it uses, to its own origin: the
 * control API answers no other. Writes carry the run's `token`, which the page was served with.
 */
export function createApi(token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`/_sim${path}`, {
      method,
      headers: {
        ...(method === 'GET' ? {} : { 'x-ringhook-sim-token': token }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    const parsed: unknown = text ? JSON.parse(text) : undefined
    if (!response.ok) {
      const error = (parsed as ApiErrorBody | undefined)?.error
      throw new SimError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`)
    }
    return parsed as T
  }
  const id = encodeURIComponent
  return {
    eventsUrl: '/_sim/events',
    state: () => call<Snapshot>('GET', '/state'),
    log: () => call<LogView>('GET', '/log'),
    delivery: (deliveryId: string) => call<Delivery>('GET', `/deliveries/${id(deliveryId)}`),
    createUser: (name: string) => call<User>('POST', '/users', { name }),
    updateUser: (userId: string, patch: Partial<Pick<User, 'ring_off' | 'companion_closed'>>) =>
      call<User>('PATCH', `/users/${id(userId)}`, patch),
    install: (appId: string, userId: string) =>
      call<{ install: Install }>('POST', `/apps/${id(appId)}/installs`, { user_id: userId }),
    updateInstall: (userAppId: string, patch: InstallPatch) =>
      call<Install>('PATCH', `/installs/${id(userAppId)}`, patch),
    lifecycle: (userAppId: string, action: LifecycleAction) =>
      call<{ install: Install }>('POST', `/installs/${id(userAppId)}/${action}`, {}),
    gesture: (userAppId: string, gestureType: string) =>
      call<{ forwarded: boolean }>('POST', `/installs/${id(userAppId)}/gesture`, { gesture_type: gestureType }),
    faults: () => call<FaultSettings>('GET', '/faults'),
    faultKinds: () => call<FaultKinds>('GET', '/faults/kinds'),
    setProfile: (profile: FaultProfile) => call<FaultSettings>('POST', '/faults', { profile }),
    nextFault: (fault: FaultName) => call<FaultSettings>('POST', '/faults/next', { faults: [fault] }),
    resend: (deliveryId: string) =>
      call<{ deliveries: Delivery[] }>('POST', `/deliveries/${id(deliveryId)}/resend`, {}),
    resendFailed: (since: string) =>
      call<{ deliveries: Delivery[] }>('POST', '/deliveries/resend', { failed_since: since }),
    answer: (eventId: string, response: string) =>
      call<{ notification: Notification }>('POST', `/notifications/${id(eventId)}/answer`, { response }),
  }
}

/** `GET /_sim/faults/kinds`: the faults and profiles the simulator knows; the page keeps no list of its own. */
export interface FaultKinds {
  faults: FaultName[]
  /** Each profile's rates, by fault. */
  profiles: Record<FaultProfile, Partial<Record<FaultName, number>>>
}

export interface InstallPatch {
  permissions?: Partial<Install['permissions']>
  muted?: boolean
  priority_slot?: boolean
}

export type Api = ReturnType<typeof createApi>
