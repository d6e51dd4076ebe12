import type { AwaitedResponse, NotificationResponse, ResponseMode } from '@ringhook/core/api'
import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { conflict, invalid } from './errors.js'
import { type AnswerInput, answerInput, parseInput } from './inputs.js'
import type { App, Delivery, Install, Notification, ResponseConfigKept } from './model.js'
import { webhookPayload } from './payloads.js'

/** An answered notification and its `notification.responded` webhook. */
export interface AnswerResult {
  /** The notification, answered. */
  notification: Notification
  /** The `notification.responded` webhook; null when the app has no webhook URL. */
  delivery: Delivery | null
}

/** Notifications waiting for the user, await-mode triggers holding on to them, and answers. */
export class Notifications {
  readonly #waiters = new Map<string, (notification: Notification) => void>()

  constructor(
    private readonly ctx: SimContext,
    private readonly deliveries: Deliveries,
  ) {}

  create(app: App, install: Install, eventId: string, mode: ResponseMode, config: ResponseConfigKept): Notification {
    const notification: Notification = {
      event_id: eventId,
      app_id: app.app_id,
      user_app_id: install.user_app_id,
      response_mode: mode,
      response_config: config,
      status: 'pending',
      response: null,
      responded_at: null,
      created_at: this.ctx.iso(),
      await: mode === 'await' ? 'waiting' : null,
    }
    this.ctx.state.notifications.set(eventId, notification)
    this.ctx.log.append({ type: 'notification.created', ...notification })
    return notification
  }

  /**
   * Holds an await-mode trigger until the user answers or `timeoutMs` (scaled) passes. A trigger
   * without a notification has nothing to answer and always times out.
   */
  wait(notification: Notification | null, timeoutMs: number): Promise<AwaitedResponse> {
    return new Promise((resolve) => {
      const cancel = this.ctx.timers.after(timeoutMs, () => {
        if (notification) {
          this.#waiters.delete(notification.event_id)
          notification.await = 'timeout'
          this.ctx.log.append({ type: 'notification.timeout', event_id: notification.event_id })
        }
        resolve({ status: 'timeout', value: null })
      })
      if (!notification) return
      this.#waiters.set(notification.event_id, (answered) => {
        cancel()
        resolve({
          status: 'responded',
          value: answered.response as NotificationResponse,
          responded_at: answered.responded_at as string,
        })
      })
    })
  }

  /** The user answers; `notification.responded` goes out for every answer, whatever the mode. */
  async answer(eventId: string, raw: AnswerInput): Promise<AnswerResult> {
    const input = parseInput(answerInput, raw)
    const notification = this.ctx.state.notification(eventId)
    if (notification.status === 'responded') throw conflict(`${eventId} was already answered.`)
    checkFits(notification.response_config, input.response)
    notification.status = 'responded'
    notification.response = input.response
    notification.responded_at = this.ctx.iso()
    const waiter = this.#waiters.get(eventId)
    if (waiter) {
      this.#waiters.delete(eventId)
      notification.await = 'responded'
      waiter(notification)
    }
    this.ctx.log.append({ type: 'notification.answered', ...notification })
    const delivery = this.#sendResponded(notification, input.response)
    if (delivery && input.wait) await this.deliveries.settled(delivery)
    return { notification, delivery }
  }

  reset(): void {
    this.#waiters.clear()
  }

  #sendResponded(notification: Notification, response: NotificationResponse): Delivery | null {
    const app = this.ctx.state.apps.get(notification.app_id)
    const install = this.ctx.state.installs.get(notification.user_app_id)
    if (!app || !install) return null
    const data = { event_id: notification.event_id, response }
    return this.deliveries.send(app, webhookPayload(this.ctx, install, 'notification.responded', { data }))
  }
}

function checkFits(config: ResponseConfigKept, response: string): void {
  if (config.type === 'yes_no_dismiss') {
    if (!['yes', 'no', 'dismiss'].includes(response)) throw invalid('response: must be yes, no or dismiss.')
    return
  }
  const offered = config.options.map((option) => `emoji:${option.emoji}`)
  if (response !== 'dismiss' && !offered.includes(response)) {
    throw invalid(`response: must be dismiss or one of ${offered.join(', ')}.`)
  }
}
