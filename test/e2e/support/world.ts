import type { Receiver } from '@ringhook/core'
import { createSimulator, type Simulator, type SimulatorOptions } from '@ringhook/simulator'
import type { Delivery } from '@ringhook/simulator/control-api'
import type { ExampleUnderTest, RunningExample } from './examples.js'
import { type Handled, recordHandled, recordingLogger } from './observe.js'

export const SECRET = 'whsec_e2e_initial_secret'

/** The default time scale of a world. */
export const FAST = 0.05
/** For tests that wait out the acknowledgement limit: 30 s is 300 ms, the retries 10, 50 and 300 ms. */
export const FASTER = 0.01

/** A simulator, one example app receiving its webhooks, and a developer key, app and user. */
export interface World {
  sim: Simulator
  example: RunningExample
  /** Every event the example's receiver ran handlers for, in order. */
  handled: Handled[]
  logger: ReturnType<typeof recordingLogger>
  appId: string
  userId: string
  close(): Promise<void>
}

export interface WorldOptions {
  sim?: SimulatorOptions
  /** Extra handlers (gates, failures) on the example's receiver, added before it listens. */
  prepare?: (receiver: Receiver) => void
  /** Where the app's webhooks go; default the example's URL. */
  webhookUrl?: (example: RunningExample) => string
}

/**
 * Starts a world. Time runs 20 times faster by default: the 1 s, 5 s and 30 s retries take 50,
 * 250 and 1500 ms, and the acknowledgement limit is 30 s of real time (the spec's 30 s scaled, 1.5 s,
 * is passed by a receiver on a machine whose cores are busy with other work). Tests about that limit
 * pass a smaller `timeScale`, and get the spec's limit scaled.
 */
export async function startWorld(target: ExampleUnderTest, options: WorldOptions = {}): Promise<World> {
  const relaxed = options.sim?.timeScale === undefined ? { ackTimeoutMs: 30_000 / FAST } : {}
  const sim = await createSimulator({ timeScale: FAST, ...relaxed, ...options.sim })
  const logger = recordingLogger()
  let handled: Handled[] = []
  const example = await target.start(SECRET, {
    logger,
    prepare: (receiver) => {
      handled = recordHandled(receiver)
      options.prepare?.(receiver)
    },
  })
  const key = sim.keys.create()
  const webhookUrl = options.webhookUrl?.(example) ?? example.url
  const app = sim.apps.create({ key_id: key.id, name: 'E2E control', webhook_url: webhookUrl, secret: SECRET })
  const user = sim.users.create({ name: 'Ada' })
  return {
    sim,
    example,
    handled,
    logger,
    appId: app.app_id,
    userId: user.id,
    close: async () => {
      await sim.close()
      await example.close()
    },
  }
}

/** The delivery as the simulator holds it now. */
export const current = (sim: Simulator, delivery: Delivery): Delivery =>
  sim.log.deliveries().find((d) => d.id === delivery.id) ?? delivery
