import type { WebhookEvent } from '@ringhook/core'
import { readAnswer } from '@ringhook/core/internal'
import { signWebhook } from '@ringhook/core/signature'
import type { SimContext } from './context.js'
import { type AttemptPlan, lostAcknowledgement, planAttempt } from './faults/attempt-plan.js'
import { FaultInjector } from './faults/injector.js'
import type { InjectedFault } from './faults/kinds.js'
import { OrderFaults, REORDER_HOLD_MS } from './faults/order.js'
import { attemptNote, SecretRegenerations } from './faults/regenerations.js'
import type { App, Attempt, AttemptOutcome, Delivery } from './model.js'
import * as resources from './resources.js'

const REPLY_LIMIT = 4096
// How much of a receiver's answer is read at all: a reply is a few hundred bytes, and an endless
// one (a misconfigured proxy, a stranger's host) must not fill the simulator's memory.
const ANSWER_LIMIT = 64 * 1024

/** Called with a delivered gesture's reply body; returns the id of the vibe it produced, if any. */
export type ReplyHandler = (delivery: Delivery, body: string) => string | null

interface Outcome {
  outcome: AttemptOutcome
  status: number | null
  body: string | null
  error: string | null
  latency: number
}

/**
 * Delivers webhooks as the service does: signed with the app's secret at each attempt, a 2xx
 * within the acknowledgement limit, otherwise retries after 1 s, 5 s and 30 s (all scaled).
 */
export class Deliveries {
  readonly #inFlight = new Set<AbortController>()
  #pending = 0
  #idleWaiters: Array<() => void> = []
  #settleWaiters: Array<() => void> = []
  #closed = false
  // Bumped by reset() and close(): attempts of an older generation stop where they are.
  #generation = 0
  // Deliveries for one install start in the order they were queued (installed before activated),
  // each after the previous one's first attempt; retries do not hold later events back.
  readonly #chains = new Map<string, Promise<void>>()
  // A lifecycle event held back by the `reorder` fault, per install, until the next one is queued.
  readonly #held = new Map<string, { delivery: Delivery; cancel: () => void }>()
  readonly #order: OrderFaults
  readonly #regenerations: SecretRegenerations

  constructor(
    private readonly ctx: SimContext,
    private readonly onReply: ReplyHandler,
    readonly faults: FaultInjector = new FaultInjector(),
  ) {
    this.#order = new OrderFaults(faults)
    this.#regenerations = new SecretRegenerations(ctx)
  }

  /** Queues one webhook for an app; recorded as skipped when the app has no webhook URL. */
  send(app: App, payload: WebhookEvent, origin: { resendOf?: string; captureId?: string | null } = {}): Delivery {
    const resendOf = origin.resendOf ?? null
    const { ctx } = this
    const delivery: Delivery = {
      id: ctx.ids.next('dlv'),
      event: payload.event,
      app_id: app.app_id,
      user_app_id: payload.user_app_id,
      url: app.webhook_url,
      payload,
      status: app.webhook_url ? 'pending' : 'skipped',
      skipped_reason: app.webhook_url ? null : 'no_webhook_url',
      retry_delays_ms: ctx.settings.retry_delays_ms.map((ms) => ctx.timers.scaled(ms)),
      attempts: [],
      next_attempt_at: null,
      faults: [],
      resend_of: resendOf,
      capture_id: origin.captureId ?? null,
      created_at: ctx.iso(),
      settled_at: null,
      vibe_id: null,
    }
    const sameSecond = delivery.status === 'pending' && resendOf === null ? this.#order.stamp(delivery) : null
    ctx.state.addDelivery(delivery)
    const ref = { delivery_id: delivery.id, event: delivery.event }
    ctx.log.append({
      type: 'delivery.queued',
      ...ref,
      app_id: app.app_id,
      user_app_id: delivery.user_app_id,
      url: delivery.url,
    })
    if (sameSecond) this.#inject(delivery, sameSecond)
    if (delivery.status === 'skipped') this.#settle(delivery)
    else {
      this.#pending++
      this.#queue(delivery)
    }
    return delivery
  }

  /** Sends the delivery again as a new one (same payload, newly signed), as the app's owner asks. */
  resend(original: Delivery): Delivery {
    return this.send(this.ctx.state.app(original.app_id), structuredClone(original.payload), {
      resendOf: original.id,
      captureId: original.capture_id,
    })
  }

  #inject(delivery: Delivery, fault: InjectedFault): void {
    delivery.faults.push(fault)
    this.ctx.log.append({ type: 'fault', delivery_id: delivery.id, event: delivery.event, ...fault })
  }

  /** Chains the delivery behind its install's earlier ones; `reorder` swaps it with the next one. */
  #queue(delivery: Delivery): void {
    const key = delivery.user_app_id
    const held = this.#held.get(key)
    if (held) {
      this.#held.delete(key)
      held.cancel()
      this.#chain(delivery)
      this.#chain(held.delivery)
      return
    }
    const reorder = delivery.resend_of === null ? this.#order.hold(delivery) : null
    if (!reorder) {
      this.#chain(delivery)
      return
    }
    this.#inject(delivery, reorder)
    const cancel = this.ctx.timers.after(REORDER_HOLD_MS, () => {
      if (this.#held.get(key)?.delivery !== delivery) return
      this.#held.delete(key)
      this.#chain(delivery)
    })
    this.#held.set(key, { delivery, cancel })
  }

  #chain(delivery: Delivery): void {
    const key = delivery.user_app_id
    const generation = this.#generation
    const first = (this.#chains.get(key) ?? Promise.resolve()).then(() => this.#run(delivery, 1, generation))
    this.#chains.set(key, first)
    void first.then(() => {
      if (this.#chains.get(key) === first) this.#chains.delete(key)
    })
  }

  /** Resolves once no delivery is pending or waiting for a retry. */
  idle(): Promise<void> {
    if (this.#pending === 0 || this.#closed) return Promise.resolve()
    return new Promise((resolve) => this.#idleWaiters.push(resolve))
  }

  /** Resolves once one delivery has settled. */
  async settled(delivery: Delivery): Promise<Delivery> {
    const generation = this.#generation
    const waiting = () => delivery.settled_at === null && !this.#closed && generation === this.#generation
    while (waiting()) await new Promise<void>((resolve) => this.#settleWaiters.push(resolve))
    return delivery
  }

  /** Drops every pending delivery and retry (the state they belong to is gone). */
  reset(): void {
    this.#generation++
    this.#chains.clear()
    this.#held.clear()
    this.#order.clear()
    for (const controller of this.#inFlight) controller.abort()
    this.#pending = 0
    this.#wake('settle')
    this.#wake('idle')
  }

  close(): void {
    this.#closed = true
    this.reset()
  }

  /** One attempt; a bug in the simulator fails the delivery instead of leaving it pending forever. */
  async #run(delivery: Delivery, n: number, generation: number): Promise<void> {
    try {
      await this.#attempt(delivery, n, generation)
    } catch (error) {
      if (delivery.settled_at !== null || generation !== this.#generation) return
      delivery.status = 'failed'
      delivery.next_attempt_at = null
      const attempt = failedAttempt(this.ctx.iso(), n, error)
      delivery.attempts.push(attempt)
      this.ctx.log.append({ type: 'delivery.attempt', delivery_id: delivery.id, event: delivery.event, ...attempt })
      this.#finish(delivery)
    }
  }

  async #attempt(delivery: Delivery, n: number, generation: number): Promise<void> {
    if (this.#closed || generation !== this.#generation) return
    delivery.next_attempt_at = null
    const retryIn = delivery.retry_delays_ms[n - 1] ?? null
    const plan = planAttempt(this.faults, n, retryIn !== null)
    for (const fault of plan.injected) this.#inject(delivery, fault)
    // The service posts to the URL and signs with the secret configured at the time of the attempt.
    const app = this.ctx.state.apps.get(delivery.app_id)
    const results = app?.webhook_url
      ? await this.#postAll(app, delivery, plan)
      : [
          {
            outcome: 'network_error' as const,
            status: null,
            body: null,
            latency: 0,
            error: 'the app has no webhook URL',
          },
        ]
    if (this.#closed || generation !== this.#generation) return
    // A burst's copies are tries of their own; the best answer stands for the attempt.
    const main = results.find((result) => result.outcome === 'ok') ?? (results[0] as Outcome)
    for (const copy of results.filter((result) => result !== main)) this.#record(delivery, n, copy, null, 'burst')
    const lost = main.outcome === 'ok' ? lostAcknowledgement(this.faults, n, retryIn !== null) : null
    const attempt = this.#record(delivery, n, main, main.outcome === 'ok' && !lost ? null : retryIn, lost?.fault)
    if (lost) this.#loseAcknowledgement(delivery, attempt, lost)
    if (attempt.outcome === 'ok') {
      delivery.status = 'delivered'
      if (delivery.event === 'gesture') delivery.vibe_id = this.onReply(delivery, main.body ?? '')
      await this.#duplicate(delivery, n, generation)
      return this.#finish(delivery)
    }
    if (retryIn === null) {
      delivery.status = 'failed'
      return this.#finish(delivery)
    }
    delivery.status = 'retrying'
    delivery.next_attempt_at = new Date(this.ctx.clock() + retryIn).toISOString()
    // The delays are the service's; Timers scales them like every other wait.
    this.ctx.timers.after(
      this.ctx.settings.retry_delays_ms[n - 1] ?? 0,
      () => void this.#run(delivery, n + 1, generation),
    )
  }

  #record(
    delivery: Delivery,
    n: number,
    result: Outcome,
    nextRetry: number | null,
    fault: Attempt['fault'] | null,
  ): Attempt {
    const note = attemptNote(this.#regenerations, delivery.app_id, result.status, result.body)
    const attempt: Attempt = {
      attempt: n,
      at: this.ctx.iso(),
      outcome: result.outcome,
      status: result.status,
      latency_ms: result.latency,
      reply: result.body === null ? null : result.body.slice(0, REPLY_LIMIT),
      error: result.error,
      next_retry_in_ms: nextRetry,
      ...(fault ? { fault } : {}),
      ...(note ? { note } : {}),
    }
    delivery.attempts.push(attempt)
    this.ctx.log.append({ type: 'delivery.attempt', delivery_id: delivery.id, event: delivery.event, ...attempt })
    return attempt
  }

  /** The app answered 2xx; the service acts as if it had not (and, for `rotation`, regenerates the secret). */
  #loseAcknowledgement(delivery: Delivery, attempt: Attempt, lost: InjectedFault): void {
    attempt.outcome = 'timeout'
    attempt.error = `the app answered ${attempt.status}, but the service lost the acknowledgement (injected ${lost.fault})`
    this.#inject(delivery, lost)
    if (lost.fault === 'rotation') resources.regenerateSecret(this.ctx, delivery.app_id)
  }

  /** The `duplicate` fault: the acknowledged payload sent once more, newly signed. */
  async #duplicate(delivery: Delivery, n: number, generation: number): Promise<void> {
    const app = this.ctx.state.apps.get(delivery.app_id)
    if (!app?.webhook_url || !this.faults.hits('duplicate')) return
    this.#inject(delivery, {
      fault: 'duplicate',
      attempt: n,
      detail: 'the acknowledged payload sent again, newly signed',
    })
    const [result] = await this.#postAll(app, delivery, { skewSeconds: 0, holdMs: 0, copies: 1, injected: [] })
    if (this.#closed || generation !== this.#generation || !result) return
    this.#record(delivery, n, result, null, 'duplicate')
  }

  async #postAll(app: App, delivery: Delivery, plan: AttemptPlan): Promise<Outcome[]> {
    const url = app.webhook_url as string
    const timestamp = Math.floor(this.ctx.clock() / 1000) + plan.skewSeconds
    if (plan.holdMs > 0) await new Promise<void>((resolve) => this.ctx.timers.after(plan.holdMs, resolve))
    const ackMs = this.ctx.settings.ack_timeout_ms - plan.holdMs
    const post = () => this.#post(url, app.secret, delivery.payload, timestamp, ackMs)
    return Promise.all(Array.from({ length: plan.copies }, post))
  }

  async #post(url: string, secret: string, payload: WebhookEvent, timestamp: number, ackMs: number): Promise<Outcome> {
    const body = JSON.stringify(payload)
    const signed = await signWebhook({ secret, body, timestamp })
    const controller = new AbortController()
    this.#inFlight.add(controller)
    const cancel = this.ctx.timers.after(ackMs, () => controller.abort())
    const started = performance.now()
    const latency = () => Math.round((performance.now() - started) * 10) / 10
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-SERVICE-Signature': signed.signature,
          'X-SERVICE-Timestamp': signed.timestamp,
          'User-Agent': 'ringhook-simulator',
        },
        body,
        redirect: 'manual',
        signal: controller.signal,
      })
      const { text } = await readAnswer(response, ANSWER_LIMIT)
      const outcome = response.status >= 200 && response.status < 300 ? 'ok' : 'http_error'
      return { outcome, status: response.status, body: text, error: null, latency: latency() }
    } catch (error) {
      const timedOut = controller.signal.aborted
      const message = timedOut ? `no answer within ${this.ctx.timers.scaled(ackMs)} ms` : describeNetworkError(error)
      return {
        outcome: timedOut ? 'timeout' : 'network_error',
        status: null,
        body: null,
        error: message,
        latency: latency(),
      }
    } finally {
      cancel()
      this.#inFlight.delete(controller)
    }
  }

  #finish(delivery: Delivery): void {
    this.#settle(delivery)
    this.#pending = Math.max(0, this.#pending - 1)
    if (this.#pending === 0) this.#wake('idle')
  }

  #settle(delivery: Delivery): void {
    delivery.settled_at = this.ctx.iso()
    const { id, event, status, attempts } = delivery
    this.ctx.log.append({ type: 'delivery.settled', delivery_id: id, event, status, attempts: attempts.length })
    this.#wake('settle')
  }

  #wake(which: 'idle' | 'settle'): void {
    const waiters = which === 'idle' ? this.#idleWaiters : this.#settleWaiters
    for (const wake of waiters.splice(0)) wake()
  }
}

function failedAttempt(at: string, n: number, error: unknown): Attempt {
  const message = `the simulator failed: ${error instanceof Error ? error.message : String(error)}`
  return {
    attempt: n,
    at,
    outcome: 'network_error',
    status: null,
    latency_ms: 0,
    reply: null,
    error: message,
    next_retry_in_ms: null,
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause
  if (cause?.code) return `${cause.code}: ${cause.message ?? 'request failed'}`
  return error instanceof Error ? error.message : String(error)
}
