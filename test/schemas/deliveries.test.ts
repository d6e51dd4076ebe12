// A short session with the simulator, over real HTTP: install, activate, a gesture answered with a
// vibe, passive, a notification answered in webhook mode, any other event of core's list sent as is,
// deactivate, uninstall. Every delivery the
// receiver got is valid to the published JSON Schema of its event, every gesture reply to the
// gesture reply's, and every /v1 answer to the schema the OpenAPI document gives its path.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@ringhook/client'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { EVENT_NAMES } from '@ringhook/core/api'
import { type JsonObject, openApiDocument } from '@ringhook/schemas'
import { createSimulator } from '@ringhook/simulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schemaErrors, strictAjv } from '../../packages/schemas/test/ajv.js'

interface Received {
  body: string
  status: number
  reply: string
}

const received: Received[] = []
const closers: Array<() => Promise<void>> = []
let apiAnswers: { method: 'get' | 'post'; path: string; request?: unknown; status: number; body: unknown }[] = []

beforeAll(async () => {
  const sim = await createSimulator({ timeScale: 0.01 })
  closers.push(() => sim.close())
  const receiver = createReceiver({
    secret: ({ appId }) => (appId ? sim.apps.get(appId).secret : undefined),
    logger: silentLogger,
  })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').notify(`Got ${event.gesture_type} 👍`))
  // The receiver's core, fed the exact bytes, so the test sees what arrived and what was answered.
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const rawBody = Buffer.concat(chunks)
    const answer = await receiver.handle({ method: request.method ?? 'GET', headers: request.headers, rawBody })
    received.push({ body: rawBody.toString('utf8'), status: answer.status, reply: answer.body })
    response.writeHead(answer.status, answer.headers).end(answer.body)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`

  const ada = sim.users.create({ name: 'Ada' })
  const key = sim.keys.create({ user_id: ada.id })
  const control = sim.apps.create({ key_id: key.id, webhook_url: url, name: 'Control' })
  const questions = sim.apps.create({ key_id: key.id, webhook_url: url, type: 'preferred_notification' })

  const { install } = await sim.install(control.app_id, ada.id, { activate: true, wait: true })
  const userAppId = install.user_app_id
  await sim.gesture(userAppId, 'double_tap', { wait: true })
  await sim.passive(userAppId, { wait: true })
  await sim.activate(userAppId, { wait: true })

  const asked = await sim.install(questions.app_id, ada.id, { activate: true, wait: true })
  const client = createClient({ apiKey: key.token, baseUrl: sim.url, retry: false, logger: silentLogger })
  const trigger = await client.vibes.trigger({
    app_id: questions.app_id,
    user_app_id: asked.install.user_app_id,
    vibe: vibe('tap').notify('Lunch at noon?'),
    response_config: {
      type: 'emoji',
      options: [
        { emoji: '🍕', label: 'pizza' },
        { emoji: '🥗', label: 'salad' },
      ],
    },
  })
  await sim.answer(trigger.event_id as string, 'emoji:🍕', { wait: true })

  // The /v1 API's answers, raw, for the OpenAPI document's schemas.
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${sim.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const method = body === undefined ? 'get' : 'post'
    apiAnswers.push({ method, path, request: body, status: response.status, body: await response.json() })
  }
  const get = (path: string) => call(path)
  await get(`/v1/apps/${control.app_id}/installs`)
  await get(`/v1/apps/${control.app_id}/installs/@me`)
  await get(`/v1/apps/${control.app_id}/users?state=active`)
  await get(`/v1/apps/${control.app_id}/users/${userAppId}`)
  await get('/v1/vibes/patterns')
  await get(`/v1/events/${trigger.event_id}/response`)
  await get('/v1/apps/app_nobody_owns/installs')
  const poll = { app_id: control.app_id, user_app_id: userAppId, sequence: [{ type: 'tap' }], response_mode: 'poll' }
  await call('/v1/vibes/trigger', poll)
  await call('/v1/vibes/trigger', { ...poll, sequence: [{ type: 'tap', delay_ms: 20 }] })

  // Events the simulated world does not model, sent as they are from their sample in core's list.
  const sent = new Set(received.map(({ body }) => (JSON.parse(body) as { event: string }).event))
  for (const name of EVENT_NAMES.filter((event) => !sent.has(event)))
    await sim.sendEvent(userAppId, name, {}, { wait: true })

  await sim.deactivate(userAppId, { wait: true })
  await sim.uninstall(userAppId, { wait: true })
  await sim.idle()
})

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  apiAnswers = []
})

describe('a simulated session', () => {
  it('delivered every documented event, each accepted by the receiver', () => {
    const names = new Set(received.map(({ body }) => (JSON.parse(body) as { event: string }).event))
    expect([...names].sort()).toEqual([...EVENT_NAMES].sort())
    expect(received.every(({ status }) => status === 200)).toBe(true)
  })

  it('sent only deliveries the JSON Schemas accept', () => {
    const problems = received.flatMap(({ body }) => {
      const payload = JSON.parse(body) as { event: string }
      return [...schemaErrors(payload.event, payload), ...schemaErrors('webhook-event', payload)].map(
        (problem) => `${payload.event}: ${problem}`,
      )
    })
    expect(problems).toEqual([])
  })

  it('got gesture replies the gesture reply schema accepts', () => {
    const replies = received
      .filter(({ body }) => (JSON.parse(body) as { event: string }).event === 'gesture')
      .map(({ reply }) => JSON.parse(reply) as unknown)
    expect(replies).toHaveLength(1)
    expect(replies[0]).toMatchObject({ success: true, vibe: { show_ring_ui_notif: true } })
    expect(schemaErrors('gesture-reply', replies[0])).toEqual([])
  })

  it('got /v1 answers, errors included, that the OpenAPI document’s schemas accept', () => {
    const ajv = strictAjv()
    const components = (openApiDocument.components as { schemas: Record<string, JsonObject> }).schemas
    expect(apiAnswers.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200, 404, 200, 400])
    // The trigger bodies sent: the one the simulator took is valid to the document, the refused one not.
    const trigger = ajv.compile(components.TriggerRequest as JsonObject)
    expect(apiAnswers.filter(({ method }) => method === 'post').map(({ request }) => trigger(request))).toEqual([
      true,
      false,
    ])
    for (const { method, path, status, body } of apiAnswers) {
      const component = answerComponent(method, path, status)
      const validate = ajv.compile(components[component] as JsonObject)
      expect(validate(body) ? [] : validate.errors, `${path} ${status} against ${component}`).toEqual([])
    }
  })
})

type Operation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }
type Paths = Record<string, { get?: Operation; post?: Operation }>

/** The component the OpenAPI document names for an answer; a path's `{name}` matches one segment. */
function answerComponent(method: 'get' | 'post', path: string, status: number): string {
  const paths = openApiDocument.paths as Paths
  const bare = path.split('?')[0] as string
  const template = Object.keys(paths).find((key) => new RegExp(`^${key.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare))
  const answer = template === undefined ? undefined : paths[template]?.[method]?.responses[String(status)]
  const ref = answer?.content?.['application/json']?.schema?.$ref
  if (!ref) throw new Error(`the OpenAPI document names no ${status} answer for ${method.toUpperCase()} ${path}`)
  return ref.replace('#/components/schemas/', '')
}
