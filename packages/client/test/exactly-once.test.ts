import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { createMemoryStore, type DedupStore } from '@ringhook/core/store'
import { ringhook } from '@ringhook/node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ALICE, APP, useWorld } from './world.js'

const SECRET = 'whsec_exactly_once'
const ask = { app_id: APP, user_app_id: ALICE, sequence: [{ type: 'tap' as const }] }
const yesNo = { type: 'yes_no_dismiss' as const }

/** A real receiver on node:http whose notification.responded handler counts its runs. */
function useReceiver() {
  const state = {
    store: createMemoryStore() as DedupStore,
    runs: [] as string[],
    url: '',
    server: undefined as Server | undefined,
  }
  beforeEach(async () => {
    state.store = createMemoryStore()
    state.runs = []
    const receiver = createReceiver({ secret: SECRET, store: state.store, logger: silentLogger })
    receiver.on('notification.responded', (event) => {
      state.runs.push(event.data.event_id)
    })
    state.server = createServer(ringhook(receiver))
    await new Promise<void>((resolve) => state.server?.listen(0, '127.0.0.1', resolve))
    state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/webhooks`
  })
  afterEach(async () => {
    state.server?.closeAllConnections()
    await new Promise((resolve) => state.server?.close(resolve))
  })
  return state
}

/** What the service sends for every response, whatever the response_mode. */
async function deliverResponse(url: string, eventId: string, response: string) {
  const body = JSON.stringify({
    event: 'notification.responded',
    user_app_id: ALICE,
    app_id: APP,
    timestamp: new Date().toISOString(),
    data: { event_id: eventId, response },
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  const answer = await fetch(url, { method: 'POST', headers, body })
  return { status: answer.status, body: await answer.text() }
}

describe('exactly once across await, poll and webhook', () => {
  const world = useWorld()
  const hook = useReceiver()

  async function awaitResponse(client: ReturnType<typeof world.client>, value: string) {
    const started = once(world.fixture.signals, 'await-start')
    const pending = client.vibes.trigger({ ...ask, response_config: yesNo, response_mode: 'await' })
    const [eventId] = (await started) as [string]
    world.fixture.respond(eventId, value)
    return pending
  }

  it('a response got by await does not run the webhook handler again', async () => {
    const client = world.client({ dedup: { store: hook.store } })
    const result = await awaitResponse(client, 'yes')
    expect(result.response.status).toBe('responded')
    expect(result.alreadyHandled).toBe(false)
    const delivery = await deliverResponse(hook.url, result.event_id ?? '', 'yes')
    expect(delivery).toEqual({ status: 200, body: '{"ok":true}' })
    expect(hook.runs).toEqual([])
  })

  it('without the link, the handler runs for a response the app already has', async () => {
    const result = await awaitResponse(world.client(), 'no')
    expect(result.alreadyHandled).toBeUndefined()
    await deliverResponse(hook.url, result.event_id ?? '', 'no')
    expect(hook.runs).toEqual([result.event_id])
  })

  it('a response got by polling does not run the handler; a second poll reports it handled', async () => {
    const client = world.client({ dedup: { store: hook.store } })
    const { event_id } = await client.vibes.trigger({ ...ask, response_config: yesNo, response_mode: 'poll' })
    const eventId = event_id ?? ''
    expect((await client.events.response(eventId)).alreadyHandled).toBeUndefined()
    world.fixture.respond(eventId, 'dismiss')
    const record = await client.events.waitForResponse(eventId)
    expect(record).toMatchObject({ status: 'responded', response: 'dismiss', alreadyHandled: false })
    expect((await client.events.response(eventId)).alreadyHandled).toBe(true)
    await deliverResponse(hook.url, eventId, 'dismiss')
    expect(hook.runs).toEqual([])
  })

  it('when the webhook came first, the poll says the response was already handled', async () => {
    const client = world.client({ dedup: { store: hook.store } })
    const { event_id } = await client.vibes.trigger({ ...ask, response_config: yesNo, response_mode: 'webhook' })
    const eventId = event_id ?? ''
    world.fixture.respond(eventId, 'yes')
    await deliverResponse(hook.url, eventId, 'yes')
    expect(hook.runs).toEqual([eventId])
    expect(await client.events.response(eventId)).toMatchObject({ status: 'responded', alreadyHandled: true })
  })

  it('a client that did not trigger the event links it with { appId }', async () => {
    const { event_id } = await world.client().vibes.trigger({ ...ask, response_config: yesNo, response_mode: 'poll' })
    const eventId = event_id ?? ''
    world.fixture.respond(eventId, 'no')
    const poller = world.client({ dedup: { store: hook.store } })
    expect((await poller.events.response(eventId)).alreadyHandled).toBeUndefined()
    expect(world.logger.lines.some((l) => l.message?.includes('pass { appId }'))).toBe(true)
    expect((await poller.events.response(eventId, { appId: APP })).alreadyHandled).toBe(false)
    await deliverResponse(hook.url, eventId, 'no')
    expect(hook.runs).toEqual([])
  })

  it('a failing store never fails the call that got the response', async () => {
    const broken: DedupStore = {
      claim: () => Promise.reject(new Error('redis down')),
      complete: () => Promise.resolve(),
      release: () => Promise.resolve(),
    }
    const result = await awaitResponse(world.client({ dedup: { store: broken } }), 'yes')
    expect(result).toMatchObject({ response: { status: 'responded' }, alreadyHandled: false })
    expect(world.logger.lines.some((l) => l.level === 'warn' && l.message?.includes('dedup store'))).toBe(true)
  })
})
