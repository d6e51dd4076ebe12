import { Webhooks } from '@octokit/webhooks'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { verifyWebhook } from '@ringhook/core/signature'
import { createMemoryStore } from '@ringhook/core/store'
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'
import { handRolledReceive, handRolledVerify, isAuthentic } from '../baseline.js'
import {
  eventBody,
  gestureBody,
  githubHeaders,
  ringHeaders,
  SECRET,
  STANDARD_SECRET,
  STRIPE_SECRET,
  standardHeaders,
  stripeHeader,
} from '../fixtures.js'
import { SeenDeliveries } from '../hand/checks.js'
import type { Contender, Operation } from './harness.js'

/**
 * Deliveries each contender cycles through. The receiver's memory store keeps each for 15 minutes
 * of its own clock, which advances 60 ms a reading (two readings a delivery): by the time a
 * delivery comes round again (16,384 × 120 ms, 33 minutes) it has expired, so dedup never
 * short-circuits.
 */
const POOL_SIZE = 16_384

interface Signed<H> {
  body: Buffer
  text: string
  headers: H
}

/** A pool of distinct deliveries signed with one scheme, and a function returning the next one. */
function signedPool<H>(sign: (body: Buffer) => H, make: () => Buffer = eventBody): () => Signed<H> {
  const pool: Signed<H>[] = []
  for (let i = 0; i < POOL_SIZE; i++) {
    const body = make()
    pool.push({ body, text: body.toString('utf8'), headers: sign(body) })
  }
  let next = 0
  return () => pool[next++ % POOL_SIZE] as Signed<H>
}

/**
 * A receiver whose memory store runs on a clock of its own, 60 ms a reading (two readings a
 * delivery): a delivery of the pool has expired by the time it comes round again (see POOL_SIZE).
 */
function benchReceiver(kit: Kit) {
  let storeClock = 0
  const store = kit.createMemoryStore({
    now: () => {
      storeClock += 60
      return storeClock
    },
  })
  return kit.createReceiver({ secret: SECRET, logger: silentLogger, store })
}

/** What the receiver contenders take from a build of core: this checkout's, or another's (`--against`). */
export interface Kit {
  createReceiver: typeof createReceiver
  createMemoryStore: typeof createMemoryStore
  vibe: typeof vibe
}

const THIS_KIT: Kit = { createReceiver, createMemoryStore, vibe }

function fail(name: string): never {
  throw new Error(`${name}: a correctly signed delivery was rejected`)
}

/** Counts handler calls, so the report can show every contender that dispatches really did. */
export const dispatched = new Map<string, number>()
const count = (name: string) => () => void dispatched.set(name, (dispatched.get(name) ?? 0) + 1)

export const BASELINE = 'baseline: hand-rolled verify + JSON.parse'
export const BASELINE_VERIFY_ONLY = 'baseline: hand-rolled verify, no parse'
export const BASELINE_SPEC = 'baseline: hand-rolled, all the spec asks'
export const RINGHOOK_HANDLE = 'ringhook receiver.handle()'
export const RINGHOOK_GESTURE = 'ringhook receiver.handle(), a gesture answered with vibe()'
export const RINGHOOK_VERIFY = 'ringhook verifyWebhook()'
export const OCTOKIT_VERIFY = '@octokit/webhooks verify()'
export const OCTOKIT_RECEIVE = '@octokit/webhooks verifyAndReceive()'
export const STANDARD_VERIFY = 'standardwebhooks Webhook.verify()'
export const STRIPE_SYNC = 'stripe webhooks.constructEvent()'
export const STRIPE_ASYNC = 'stripe webhooks.constructEventAsync()'

const contender = (name: string, setup: () => Operation | Promise<Operation>): Contender => ({
  name,
  setup: async () => setup(),
})

export const microContenders: readonly Contender[] = [
  contender(BASELINE, () => {
    const next = signedPool(ringHeaders)
    return () => {
      const { body, headers } = next()
      return handRolledVerify(body, headers['x-service-signature'], headers['x-service-timestamp']) ?? fail(BASELINE)
    }
  }),
  contender(BASELINE_VERIFY_ONLY, () => {
    const next = signedPool(ringHeaders)
    return () => {
      const { body, headers } = next()
      return isAuthentic(body, headers['x-service-signature'], headers['x-service-timestamp']) || fail(BASELINE)
    }
  }),
  contender(BASELINE_SPEC, () => {
    // Remembers deliveries 15 minutes on a clock that advances 120 ms a delivery, as the receiver's
    // store below does (60 ms a reading, two readings a delivery): as many live entries, none hit.
    let clock = 0
    const seen = new SeenDeliveries(15 * 60_000, () => {
      clock += 120
      return clock
    })
    const handled = count(BASELINE_SPEC)
    const next = signedPool(ringHeaders)
    return () => {
      const { body, headers } = next()
      const status = handRolledReceive(
        body,
        headers['x-service-signature'],
        headers['x-service-timestamp'],
        seen,
        handled,
      )
      return status === 200 || fail(BASELINE_SPEC)
    }
  }),
  ...receiverContenders(THIS_KIT),
  contender(RINGHOOK_VERIFY, () => {
    const next = signedPool(ringHeaders)
    return () => {
      const { body, headers } = next()
      return verifyWebhook({
        rawBody: body,
        signature: headers['x-service-signature'],
        timestamp: headers['x-service-timestamp'],
        secret: SECRET,
      }).then((result) => result.ok || fail(RINGHOOK_VERIFY))
    }
  }),
  contender(OCTOKIT_VERIFY, () => {
    const webhooks = new Webhooks({ secret: SECRET })
    const next = signedPool(githubHeaders)
    return () => {
      const { text, headers } = next()
      return webhooks.verify(text, headers['x-hub-signature-256'] as string).then((ok) => ok || fail(OCTOKIT_VERIFY))
    }
  }),
  contender(OCTOKIT_RECEIVE, () => {
    const webhooks = new Webhooks({ secret: SECRET })
    webhooks.on('ping', count(OCTOKIT_RECEIVE))
    const next = signedPool(githubHeaders)
    return () => {
      const { text, headers } = next()
      return webhooks.verifyAndReceive({
        id: headers['x-github-delivery'] as string,
        name: 'ping',
        payload: text,
        signature: headers['x-hub-signature-256'] as string,
      })
    }
  }),
  contender(STANDARD_VERIFY, () => {
    const webhook = new Webhook(STANDARD_SECRET)
    const next = signedPool(standardHeaders)
    return () => {
      const { body, headers } = next()
      return webhook.verify(body, headers)
    }
  }),
  contender(STRIPE_SYNC, () => {
    const stripe = new Stripe('sk_test_bench')
    const next = signedPool(stripeHeader)
    return () => {
      const { body, headers } = next()
      return stripe.webhooks.constructEvent(body, headers, STRIPE_SECRET)
    }
  }),
  contender(STRIPE_ASYNC, () => {
    const stripe = new Stripe('sk_test_bench')
    const next = signedPool(stripeHeader)
    return () => {
      const { body, headers } = next()
      return stripe.webhooks.constructEventAsync(body, headers, STRIPE_SECRET)
    }
  }),
]

/**
 * `receiver.handle()` with an acknowledged event and with a gesture answered by a vibe, on `kit`.
 * `label` names another build's pair (`--against`), measured in the same rounds as this one's.
 */
export function receiverContenders(kit: Kit = THIS_KIT, label = ''): Contender[] {
  const handleName = `${RINGHOOK_HANDLE}${label}`
  const gestureName = `${RINGHOOK_GESTURE}${label}`
  return [
    contender(handleName, () => {
      const receiver = benchReceiver(kit)
      receiver.on('notification.responded', count(handleName))
      const next = signedPool(ringHeaders)
      return () => {
        const { body, headers } = next()
        return receiver
          .handle({ method: 'POST', headers, rawBody: body })
          .then((response) => response.status === 200 || fail(handleName))
      }
    }),
    // The service's other kind of delivery: a gesture, answered with a vibe the handler builds (the
    // vibe and the reply are checked as well). Not a target; shown beside the acknowledged event.
    contender(gestureName, () => {
      const receiver = benchReceiver(kit)
      const handled = count(gestureName)
      receiver.on('gesture', () => {
        handled()
        return kit.vibe('tap', 'pulse').message('Saved')
      })
      const next = signedPool(ringHeaders, gestureBody)
      return () => {
        const { body, headers } = next()
        return receiver
          .handle({ method: 'POST', headers, rawBody: body })
          .then((response) => (response.status === 200 && response.body.includes('"vibe"')) || fail(gestureName))
      }
    }),
  ]
}
