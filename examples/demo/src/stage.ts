// Everything the demo plays on: the node:http example app, a gateway in front of it, the
// simulator, a user, two apps and a client on the developer's key.
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createClient, type RinghookClient } from '@ringhook/client'
import { createSimulator, type Simulator } from '@ringhook/simulator'
import type { App, User } from '@ringhook/simulator/control-api'
import { createApp } from '../../node-http/src/app.js'
import { type Gateway, startGateway } from './gateway.js'
import { narrateExchange, timelineLogger } from './narrate.js'
import type { Timeline } from './timeline.js'

/** One handler run on the app's receiver. */
export interface Handled {
  event: string
  user_app_id: string
  /** `gesture_type` of a gesture, `data.event_id` of a response. */
  detail: string | undefined
}

export interface Stage {
  sim: Simulator
  client: RinghookClient
  gateway: Gateway
  /** The example app's receiver URL (behind the gateway). */
  appUrl: string
  /** Every event the app's receiver ran its handlers for. */
  handled: Handled[]
  ada: User
  control: App
  questions: App
  close(): Promise<void>
}

export interface StageOptions {
  timeScale: number
  /** The secret the app is started with; default the one the apps were created with. */
  appSecret?: string
}

export async function createStage(timeline: Timeline, options: StageOptions): Promise<Stage> {
  // A fresh secret per run, shared by both apps so one receiver verifies both; never printed.
  const secret = `whsec_${randomBytes(24).toString('hex')}`
  const { server, receiver } = createApp(options.appSecret ?? secret, { logger: timelineLogger(timeline, 'receiver') })
  const handled: Handled[] = []
  receiver.onAny((event) => {
    const { gesture_type } = event as { gesture_type?: string }
    const { event_id } = (event.data ?? {}) as { event_id?: string }
    handled.push({ event: event.event, user_app_id: String(event.user_app_id), detail: gesture_type ?? event_id })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  const gateway = await startGateway(appUrl, (exchange) => narrateExchange(timeline, exchange))

  const sim = await createSimulator({ timeScale: options.timeScale })
  const ada = sim.users.create({ name: 'Ada' })
  const key = sim.keys.create({ user_id: ada.id })
  const app = (name: string, type: App['type']) =>
    sim.apps.create({ key_id: key.id, name, type, webhook_url: gateway.url, secret })
  const control = app('Demo control', 'control')
  const questions = app('Demo questions', 'preferred_notification')
  // Linked to the receiver's dedup store: an answer the app got by await or poll is not handled again by the webhook.
  const client = createClient({
    apiKey: key.token,
    baseUrl: sim.url,
    dedup: { store: receiver.options.store },
    logger: timelineLogger(timeline, 'client'),
  })

  return {
    sim,
    client,
    gateway,
    appUrl,
    handled,
    ada,
    control,
    questions,
    close: async () => {
      await sim.close()
      await gateway.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
