import { type LoadCapturesInput, type LoadCapturesResult, loadCaptures } from './captures.js'
import { Timers } from './clock.js'
import type { ResolvedConfig } from './config.js'
import { type SimContext, timestamps } from './context.js'
import { Deliveries } from './delivery.js'
import { FaultInjector } from './faults/injector.js'
import { buildReport, type SimReport } from './faults/report.js'
import { type GestureResult, handleGestureReply, performGesture } from './gestures.js'
import { Ids } from './ids.js'
import type {
  AnswerInput,
  CreateAppInput,
  CreateKeyInput,
  CreateUserInput,
  GestureInput,
  InstallInput,
  ResendFailedInput,
  SendEventInput,
  UpdateAppInput,
  UpdateInstallInput,
  UpdateKeyInput,
  UpdateUserInput,
  WaitInput,
} from './inputs.js'
import { install, type LifecycleAction, type LifecycleResult, transition } from './lifecycle.js'
import { type LogQuery, type LogView, SimLog } from './log.js'
import type { App, Install, Key, Snapshot, User } from './model.js'
import { type AnswerResult, Notifications } from './notifications.js'
import { SlidingWindow } from './rate-limit.js'
import { type ResendResult, resendFailed, resendOne } from './resend.js'
import * as resources from './resources.js'
import { type SendEventResult, sendEvent } from './send-event.js'
import { SimState } from './state.js'

/** Every operation of the simulator, shared by the programmatic and the HTTP control API. */
export class Engine {
  readonly ctx: SimContext
  readonly deliveries: Deliveries
  readonly notifications: Notifications

  constructor(config: ResolvedConfig) {
    const { clock, settings } = config
    const stamps = timestamps(clock)
    const limits = settings.rate_limits
    this.ctx = {
      state: new SimState(config.logLimit),
      log: new SimLog(stamps.iso, config.logLimit),
      ids: new Ids(),
      clock,
      timers: new Timers(settings.time_scale),
      settings,
      requestLimit: new SlidingWindow(limits.requests_per_key.limit, limits.requests_per_key.window_ms, clock),
      vibeLimit: new SlidingWindow(limits.vibes_per_user.limit, limits.vibes_per_user.window_ms, clock),
      ...stamps,
    }
    this.deliveries = new Deliveries(
      this.ctx,
      (delivery, body) => handleGestureReply(this.ctx, delivery, body),
      new FaultInjector(config.faults),
    )
    this.notifications = new Notifications(this.ctx, this.deliveries)
  }

  createKey = (input?: CreateKeyInput): Key => resources.createKey(this.ctx, input)
  updateKey = (id: string, input: UpdateKeyInput): Key => resources.updateKey(this.ctx, id, input)
  createUser = (input?: CreateUserInput): User => resources.createUser(this.ctx, input)
  updateUser = (id: string, input: UpdateUserInput): User => resources.updateUser(this.ctx, id, input)
  createApp = (input: CreateAppInput): App => resources.createApp(this.ctx, input)
  updateApp = (id: string, input: UpdateAppInput): App => resources.updateApp(this.ctx, id, input)
  regenerateSecret = (id: string): App => resources.regenerateSecret(this.ctx, id)
  updateInstall = (id: string, input: UpdateInstallInput): Install => resources.updateInstall(this.ctx, id, input)
  snapshot = (): Snapshot => resources.snapshot(this.ctx)

  install = (appId: string, input: InstallInput): Promise<LifecycleResult> =>
    install(this.ctx, this.deliveries, appId, input)
  transition = (id: string, action: LifecycleAction, input?: WaitInput): Promise<LifecycleResult> =>
    transition(this.ctx, this.deliveries, id, action, input)
  gesture = (id: string, input: GestureInput): Promise<GestureResult> =>
    performGesture(this.ctx, this.deliveries, id, input)
  answer = (eventId: string, input: AnswerInput): Promise<AnswerResult> => this.notifications.answer(eventId, input)
  sendEvent = (id: string, input: SendEventInput): Promise<SendEventResult> =>
    sendEvent(this.ctx, this.deliveries, id, input)

  resend = (deliveryId: string, input?: WaitInput): Promise<ResendResult> =>
    resendOne(this.ctx, this.deliveries, deliveryId, input)
  resendFailed = (input: ResendFailedInput): Promise<ResendResult> => resendFailed(this.ctx, this.deliveries, input)
  loadCaptures = (input: LoadCapturesInput): Promise<LoadCapturesResult> =>
    loadCaptures(this.ctx, this.deliveries, input)
  /** The service's verdict on every delivery kept. */
  report = (): SimReport => structuredClone(buildReport([...this.ctx.state.deliveries.values()]))

  logView(query: LogQuery = {}): LogView {
    const { state } = this.ctx
    return structuredClone({
      last_seq: this.ctx.log.lastSeq,
      entries: this.ctx.log.entries(query),
      deliveries: [...state.deliveries.values()],
      vibes: state.vibes,
      notifications: [...state.notifications.values()],
    })
  }

  /** Forgets every key, user, app, install, notification and log entry; settings stay. */
  reset(): void {
    this.deliveries.reset()
    this.notifications.reset()
    this.ctx.timers.clear()
    this.ctx.state.clear()
    this.ctx.log.clear()
    this.ctx.requestLimit.clear()
    this.ctx.vibeLimit.clear()
    resources.logState(this.ctx, 'reset', null, null)
  }

  close(): void {
    this.deliveries.close()
    this.ctx.timers.clear()
  }
}
