import { describe, expect, it } from 'vitest'
// The root entry, as an app imports it: nothing here may build a schema before a delivery needs one.
import { createReceiver, silentLogger, vibe } from '../index.js'
import { signWebhook } from '../signature.js'
import { ANY_EVENT, EVENTS } from './events.js'
import { GESTURE_REPLY, VIBE } from './vibe.js'

const SECRET = 'whsec_lazy'

const builtEventSchemas = () => Object.entries(EVENTS).flatMap(([name, form]) => (form.built ? [name] : []))
const schemasBuilt = () => ({
  events: builtEventSchemas(),
  unknown: ANY_EVENT.built,
  vibe: VIBE.built || GESTURE_REPLY.built,
})

async function deliver(receiver: ReturnType<typeof createReceiver>, payload: object) {
  const body = JSON.stringify(payload)
  const { headers } = await signWebhook({ secret: SECRET, body })
  return receiver.handle({ method: 'POST', headers, rawBody: new TextEncoder().encode(body) })
}

const gesture = (fields: object = {}) => ({
  event: 'gesture',
  gesture_type: 'tap',
  user_app_id: 'u1',
  app_id: 'app_1',
  timestamp: new Date().toISOString(),
  data: {},
  ...fields,
})

// One file, one order: each step sees what the steps before it built.
describe('schemas are built when a delivery needs one, not before', () => {
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  receiver.on('gesture', () => vibe('tap', 'pulse').message('Saved'))

  it('importing core and creating a receiver builds none', () => {
    expect(schemasBuilt()).toEqual({ events: [], unknown: false, vibe: false })
  })

  it("a valid gesture answered with a vibe builds none: each form's predicate answers", async () => {
    const response = await deliver(receiver, gesture())
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toMatchObject({ success: true, vibe: { message: 'Saved' } })
    expect(schemasBuilt()).toEqual({ events: [], unknown: false, vibe: false })
  })

  it('an invalid gesture builds its own schema only, for the words of its issues', async () => {
    const response = await deliver(receiver, gesture({ gesture_type: 42, user_app_id: 'u2' }))
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'invalid_payload' } })
    expect(builtEventSchemas()).toEqual(['gesture'])
    expect(VIBE.built).toBe(false)
  })

  it('a vibe that breaks a rule builds the vibe schemas, for the words of the rule', () => {
    expect(() => vibe('tap').notify()).toThrow(/message/)
    expect(VIBE.built).toBe(true)
  })
})
