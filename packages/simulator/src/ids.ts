import { randomBytes, randomUUID } from 'node:crypto'

const hex = (bytes: number) => randomBytes(bytes).toString('hex')

/** Identifiers: short counters for what people type, random values for what must be unguessable. */
export class Ids {
  readonly #counters = new Map<string, number>()

  /** `key_1`, `usr_2`, `dlv_3`... */
  next(prefix: string): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1
    this.#counters.set(prefix, n)
    return `${prefix}_${n}`
  }

  appId = () => `app_${hex(6)}`
  eventId = () => `evt_${hex(12)}`
  userAppId = () => randomUUID()
  token = () => `rk_sim_${hex(16)}`
  secret = () => `whsec_${hex(24)}`
  requestId = () => `req_${hex(8)}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a string is UUID-shaped, as user-app ids are. */
export const isUuid = (value: string): boolean => UUID.test(value)
