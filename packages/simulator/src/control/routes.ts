import { z } from 'zod'
import { LOAD_CAPTURES_BODY_LIMIT } from '../captures.js'
import type { Engine } from '../engine.js'
import { FAULT_NAMES, FAULT_PROFILES, nextFaultsInput } from '../faults/kinds.js'
import { type RouteRequest, type RouteResult, Router } from '../http/router.js'
import { parseInput } from '../inputs.js'
import type { LifecycleAction } from '../lifecycle.js'
import { streamEvents } from './sse.js'

// The control API under /_sim/ (CONTROL-API.md); every route is a thin call into the engine.

const ok = (body: unknown): RouteResult => ({ status: 200, body })
const created = (body: unknown): RouteResult => ({ status: 201, body })
const param = (request: RouteRequest, name: string) => request.params[name] as string
/** The JSON body, handed on as is: every engine operation validates its input with zod. */
const body = async (request: RouteRequest, limit?: number): Promise<never> =>
  ((await request.body(limit)) ?? {}) as never

const count = z.coerce.number().int().min(0).optional()
const logQuery = z.strictObject({
  since: count,
  limit: z.coerce.number().int().min(1).optional(),
  type: z.string().optional(),
})
const notificationQuery = z.strictObject({ status: z.enum(['pending', 'responded']).optional() })

const lifecycle = (action: LifecycleAction) => async (request: RouteRequest, engine: Engine) =>
  ok(await engine.transition(param(request, 'user_app_id'), action, await body(request)))

export function controlRouter(): Router<Engine> {
  return (
    new Router<Engine>()
      .add('GET', '/state', (_, engine) => ok(engine.snapshot()))
      .add('POST', '/reset', (_, engine) => {
        engine.reset()
        return ok({ ok: true })
      })
      .add('POST', '/keys', async (request, engine) => created(engine.createKey(await body(request))))
      .add('PATCH', '/keys/:key_id', async (request, engine) =>
        ok(engine.updateKey(param(request, 'key_id'), await body(request))),
      )
      .add('POST', '/users', async (request, engine) => created(engine.createUser(await body(request))))
      .add('PATCH', '/users/:user_id', async (request, engine) =>
        ok(engine.updateUser(param(request, 'user_id'), await body(request))),
      )
      .add('POST', '/apps', async (request, engine) => created(engine.createApp(await body(request))))
      .add('PATCH', '/apps/:app_id', async (request, engine) =>
        ok(engine.updateApp(param(request, 'app_id'), await body(request))),
      )
      .add('POST', '/apps/:app_id/regenerate-secret', (request, engine) =>
        ok(engine.regenerateSecret(param(request, 'app_id'))),
      )
      .add('POST', '/apps/:app_id/installs', async (request, engine) =>
        created(await engine.install(param(request, 'app_id'), await body(request))),
      )
      .add('PATCH', '/installs/:user_app_id', async (request, engine) =>
        ok(engine.updateInstall(param(request, 'user_app_id'), await body(request))),
      )
      .add('POST', '/installs/:user_app_id/activate', lifecycle('activate'))
      .add('POST', '/installs/:user_app_id/passive', lifecycle('passive'))
      .add('POST', '/installs/:user_app_id/deactivate', lifecycle('deactivate'))
      .add('POST', '/installs/:user_app_id/uninstall', lifecycle('uninstall'))
      .add('POST', '/installs/:user_app_id/gesture', async (request, engine) =>
        ok(await engine.gesture(param(request, 'user_app_id'), await body(request))),
      )
      .add('POST', '/installs/:user_app_id/events', async (request, engine) =>
        ok(await engine.sendEvent(param(request, 'user_app_id'), await body(request))),
      )
      .add('GET', '/notifications', (request, engine) => {
        const { status } = parseInput(notificationQuery, Object.fromEntries(request.query))
        const all = [...engine.ctx.state.notifications.values()]
        return ok({ notifications: all.filter((n) => status === undefined || n.status === status) })
      })
      .add('POST', '/notifications/:event_id/answer', async (request, engine) =>
        ok(await engine.answer(param(request, 'event_id'), await body(request))),
      )
      .add('GET', '/log', (request, engine) =>
        ok(engine.logView(parseInput(logQuery, Object.fromEntries(request.query)))),
      )
      .add('GET', '/deliveries/:delivery_id', (request, engine) =>
        ok(engine.ctx.state.delivery(param(request, 'delivery_id'))),
      )
      .add('GET', '/faults', (_, engine) => ok(engine.deliveries.faults.settings()))
      // What a client offers (the page's buttons and profiles): the simulator's own lists, never a copy.
      .add('GET', '/faults/kinds', () => ok({ faults: FAULT_NAMES, profiles: FAULT_PROFILES }))
      .add('POST', '/faults', async (request, engine) => ok(engine.deliveries.faults.set(await body(request))))
      .add('POST', '/faults/next', async (request, engine) => {
        const input = parseInput(nextFaultsInput, await body(request))
        return ok(engine.deliveries.faults.next(input.faults))
      })
      .add('POST', '/faults/clear', (_, engine) => ok(engine.deliveries.faults.clear()))
      .add('GET', '/report', (_, engine) => ok(engine.report()))
      .add('POST', '/deliveries/resend', async (request, engine) => ok(await engine.resendFailed(await body(request))))
      .add('POST', '/deliveries/:delivery_id/resend', async (request, engine) =>
        ok(await engine.resend(param(request, 'delivery_id'), await body(request))),
      )
      .add('POST', '/captures', async (request, engine) =>
        ok(await engine.loadCaptures(await body(request, LOAD_CAPTURES_BODY_LIMIT))),
      )
      .add('GET', '/idle', async (_, engine) => {
        await engine.deliveries.idle()
        return ok({ ok: true })
      })
      .add('GET', '/events', (request, engine) => streamEvents(request, engine))
  )
}
