// The scripted session: what Ada, the service and the app do, step by step, and what the spec
// says each step must produce. Every check lands on the timeline as ✓ or ✗.
import { vibe } from '@ringhook/client'
import type { Delivery as SimDelivery } from '@ringhook/simulator/control-api'
import { deliveredOnce, gesture, handledOnce, responseDelivery, runs } from './checks.js'
import { need, pause, type Session, type Step } from './session.js'

const lifecycle = (title: string, expects: string, act: (s: Session) => Promise<SimDelivery[]>, events: string[]) => ({
  title,
  expects,
  run: async (session: Session) => deliveredOnce(session, await act(session), events),
})

export const script: Step[] = [
  lifecycle(
    'Ada installs "Demo control"',
    'app.installed is sent to the app and acknowledged with a 2xx (section 6)',
    async (session) => {
      const { sim, control, ada } = session.stage
      session.timeline.row('Ada', 'service', `installs "${control.name}"`)
      const { install, deliveries } = await sim.install(control.app_id, ada.id, { wait: true })
      session.control = install.user_app_id
      return deliveries
    },
    ['app.installed'],
  ),
  lifecycle(
    'Ada selects it in the hotbar',
    'app.activated (section 6)',
    async (session) => {
      session.timeline.row('Ada', 'service', 'selects "Demo control" in the hotbar')
      return (await session.stage.sim.activate(need(session.control, 'The control install'), { wait: true })).deliveries
    },
    ['app.activated'],
  ),
  {
    title: 'Ada double-taps, then long-presses',
    expects: 'a gesture webhook each, answered with a vibe the ring plays (section 6, rule 4)',
    run: async (session) => {
      for (const type of ['double_tap', 'long_press']) {
        const delivery = await gesture(session, type)
        session.timeline.check(
          delivery?.attempts.length === 1 && runs(session, 'gesture', { detail: type }) === 1,
          `${type} delivered at the first attempt and handled once`,
        )
      }
    },
  },
  {
    title: 'The app is unreachable for one attempt: a delivery fails once and is retried',
    expects: 'no 2xx, so the service retries after 1 s; the retry is answered with the vibe (section 6, rule 3)',
    run: async (session) => {
      const { gateway, sim } = session.stage
      gateway.arm('down', (body) => body.event === 'gesture')
      const delivery = await gesture(session, 'swipe_up')
      const attempts = delivery?.attempts ?? []
      const [first, second] = attempts
      const retryIn = sim.state().settings.retry_delays_ms[0]
      session.timeline.check(
        attempts.length === 2 && first?.status === 503 && second?.outcome === 'ok',
        `attempt 1 got 503, the retry ${retryIn !== undefined ? `${retryIn / 1000} s later ` : ''}got ${second?.status}`,
        attempts.map((a) => a.status ?? a.outcome).join(', '),
      )
      const vibes = sim.log.vibes().filter((v) => v.delivery_id === delivery?.id)
      session.timeline.check(
        vibes.length === 1 && runs(session, 'gesture', { detail: 'swipe_up' }) === 1,
        'one vibe, one handler run',
        `${vibes.length} vibe(s), ${runs(session, 'gesture', { detail: 'swipe_up' })} run(s)`,
      )
    },
  },
  lifecycle(
    'Ada installs "Demo questions", a notifications app, and it becomes active',
    'app.installed, then app.activated, in that order (section 6, rule 1)',
    async (session) => {
      const { sim, questions, ada } = session.stage
      session.timeline.row('Ada', 'service', `installs "${questions.name}" and turns it on`)
      const { install, deliveries } = await sim.install(questions.app_id, ada.id, { activate: true, wait: true })
      session.questions = install.user_app_id
      return deliveries
    },
    ['app.installed', 'app.activated'],
  ),
  {
    title: 'The app asks Ada a yes/no question and waits for the answer (await mode)',
    expects: 'the trigger returns responded "yes"; notification.responded still fires, and is handled once',
    run: async (session) => {
      const { sim, client, questions } = session.stage
      need(session.questions, 'The questions install')
      session.timeline.row('app', 'service', 'triggers "Join the 3 pm standup?" for @me, response_mode await')
      const shown = sim.nextNotification()
      const asked = client.vibes.trigger({
        app_id: questions.app_id,
        user_app_id: '@me',
        vibe: vibe('tap', 'tap').notify('Join the 3 pm standup?'),
        response_config: { type: 'yes_no_dismiss' },
        response_mode: 'await',
        timeout_ms: 30_000,
      })
      const notification = await Promise.race([shown, asked.then(() => Promise.reject(new Error('no question shown')))])
      await pause(session.readMs)
      await sim.answer(notification.event_id, 'yes')
      const result = await asked
      session.timeline.row('service', 'app', `await result: ${result.response.status} "${result.response.value}"`)
      await sim.idle()
      session.timeline.check(
        result.response.status === 'responded' && result.response.value === 'yes',
        'the trigger returned responded "yes"',
        `${result.response.status} ${result.response.value}`,
      )
      const webhook = responseDelivery(session, notification.event_id)
      session.timeline.check(
        webhook?.status === 'delivered',
        'notification.responded was delivered too (section 4, rule 8)',
        webhook ? webhook.status : 'not sent',
      )
      handledOnce(session, notification.event_id, 'await', result.alreadyHandled)
    },
  },
  {
    title: 'A question in poll mode; the acknowledgement of its webhook is lost, so it comes again',
    expects: 'polling returns responded "no"; the repeated webhook is deduplicated: handled once, 2xx from the store',
    run: async (session) => {
      const { sim, client, questions, gateway } = session.stage
      need(session.questions, 'The questions install')
      gateway.arm('lose-ack', (body) => body.event === 'notification.responded')
      session.timeline.row('app', 'service', 'triggers "Order lunch for the team?" for @me, response_mode poll')
      const result = await client.vibes.trigger({
        app_id: questions.app_id,
        user_app_id: '@me',
        vibe: vibe('pulse').notify('Order lunch for the team?'),
        response_config: { type: 'yes_no_dismiss' },
        response_mode: 'poll',
      })
      const eventId = need(result.event_id ?? undefined, 'The event id')
      const polled = client.events.waitForResponse(eventId, { intervalMs: session.readMs / 2, timeoutMs: 10_000 })
      await pause(session.readMs)
      await sim.answer(eventId, 'no')
      const record = await polled
      session.timeline.row('service', 'app', `poll result: ${record.status} "${record.response}"`)
      await sim.idle()
      session.timeline.check(
        record.status === 'responded' && record.response === 'no',
        'polling returned responded "no"',
        `${record.status} ${record.response}`,
      )
      const attempts = responseDelivery(session, eventId)?.attempts ?? []
      const retried = gateway.exchanges.filter((e) => e.event === 'notification.responded').at(-1)
      session.timeline.check(
        attempts.length === 2 &&
          attempts[0]?.status === 502 &&
          attempts[1]?.outcome === 'ok' &&
          retried?.duplicate === true,
        'the retry was answered 2xx from the dedup store (x-ringhook-duplicate)',
        attempts.map((a) => a.status ?? a.outcome).join(', '),
      )
      handledOnce(session, eventId, 'poll', record.alreadyHandled)
    },
  },
  lifecycle(
    'Ada switches to another control app',
    'app.deactivated (section 6)',
    async (session) => {
      session.timeline.row('Ada', 'service', 'selects another control in the hotbar')
      return (await session.stage.sim.deactivate(need(session.control, 'The control install'), { wait: true }))
        .deliveries
    },
    ['app.deactivated'],
  ),
  lifecycle(
    'Ada removes both apps',
    'app.uninstalled; an app still active is deactivated first (section 6, rule 1)',
    async (session) => {
      const { sim } = session.stage
      session.timeline.row('Ada', 'service', 'removes "Demo control" and "Demo questions"')
      const control = await sim.uninstall(need(session.control, 'The control install'), { wait: true })
      const questions = await sim.uninstall(need(session.questions, 'The questions install'), { wait: true })
      return [...control.deliveries, ...questions.deliveries]
    },
    ['app.uninstalled', 'app.deactivated', 'app.uninstalled'],
  ),
  {
    title: 'Nothing lost, nothing twice',
    expects: 'every webhook delivered, none failed; the app handled each event once',
    run: async (session) => {
      const { sim, handled } = session.stage
      await sim.idle()
      const deliveries = sim.log.deliveries()
      const failed = deliveries.filter((d) => d.status !== 'delivered')
      session.timeline.check(
        failed.length === 0,
        `${deliveries.length} webhooks delivered, ${deliveries.reduce((n, d) => n + d.attempts.length, 0)} attempts`,
        `${failed.length} not delivered: ${failed.map((d) => `${d.event} ${d.status}`).join(', ')}`,
      )
      const keys = handled.map((h) => `${h.event} ${h.user_app_id} ${h.detail ?? ''}`)
      const twice = keys.filter((key, i) => keys.indexOf(key) !== i)
      session.timeline.check(
        twice.length === 0,
        `the app's handlers ran ${handled.length} times, never twice for one event`,
        `twice: ${twice.join('; ')}`,
      )
    },
  },
]
