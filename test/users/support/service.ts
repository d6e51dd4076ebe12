import { createClient, type RinghookClient } from '@ringhook/client'
import { createSimulator, type FaultSettingsInput, type Simulator } from '@ringhook/simulator'

export const SECRET = 'whsec_users_states_secret'

/** The service's bad days the states must survive, on every delivery at these rates. */
export const BAD_DAYS: FaultSettingsInput = {
  rates: { reorder: 0.3, same_second: 0.15, lost_ack: 0.1, duplicate: 0.1, burst: 0.05 },
  seed: 49,
}

/** A simulator 20 times faster (retries after 50, 250 and 1500 ms), a key, and a control app. */
export interface Service {
  sim: Simulator
  appId: string
  apiKey: string
  /** A client of the app's key, its requests kept under the key's limit. */
  client(): RinghookClient
  /** Points the app's webhooks at `url`, keeping its secret. */
  deliverTo(url: string): void
}

export async function startService(faults: FaultSettingsInput = {}): Promise<Service> {
  // The acknowledgement limit is out of these tests' way (60 s scaled): a machine busy with 2,000 users,
  // or with other work on both cores, answering late is not the bad day under test (at 15 s, a burst
  // into a receiver starved of CPU was seen answered past it); lost acknowledgements are, and retry on time.
  const sim = await createSimulator({ timeScale: 0.05, ackTimeoutMs: 1_200_000, faults, logLimit: 100_000 })
  const key = sim.keys.create()
  const app = sim.apps.create({ key_id: key.id, webhook_url: 'http://127.0.0.1:9/unset', secret: SECRET })
  return {
    sim,
    appId: app.app_id,
    apiKey: key.token,
    client: () => createClient({ apiKey: key.token, baseUrl: sim.url, rateLimit: true }),
    deliverTo: (url) => {
      sim.apps.update(app.app_id, { webhook_url: url, keep_secret: true })
    },
  }
}
