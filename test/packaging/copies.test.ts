// A vibe crosses copies of @ringhook/core: an app that loads the ESM build in one module and the
// CommonJS build in another (or two installed versions) must still have its gesture replies sent.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from '../runtimes/built.js'
import { gesture, NOW_MS, SECRET, signed } from '../support/events.js'

type Core = typeof import('@ringhook/core')

const dist = join(ROOT, 'packages', 'core', 'dist')
let esm: Core
let cjs: Core

beforeAll(async () => {
  assertBuilt('core')
  esm = (await import(pathToFileURL(join(dist, 'index.js')).href)) as Core
  cjs = createRequire(import.meta.url)(join(dist, 'index.cjs')) as Core
})

/** Delivers one gesture to a receiver of `receiverCopy` whose handler returns `reply`. */
async function deliver(receiverCopy: Core, reply: () => unknown) {
  const logged: string[] = []
  const noop = () => {}
  const logger: import('@ringhook/core').Logger = {
    debug: noop,
    info: noop,
    warn: noop,
    error: (_fields, message) => void logged.push(message ?? ''),
    child: () => logger,
  }
  const receiver = receiverCopy.createReceiver({ secret: SECRET, now: () => NOW_MS, logger })
  receiver.on('gesture', reply as never)
  const delivery = await signed(gesture())
  const response = await receiver.handle({ method: 'POST', headers: delivery.headers, rawBody: delivery.body })
  return { status: response.status, body: JSON.parse(response.body) as unknown, logged }
}

describe('a vibe built by one copy of core, answered by another', () => {
  it('are two copies: instanceof would tell them apart', () => {
    expect(esm.createReceiver).not.toBe(cjs.createReceiver)
    expect(() => esm.vibe('tap').message('x'.repeat(81))).not.toThrow(cjs.VibeRuleError)
  })

  it.each([
    ['ESM vibe, CommonJS receiver', () => esm, () => cjs],
    ['CommonJS vibe, ESM receiver', () => cjs, () => esm],
  ])('%s: the vibe is sent', async (_name, builder, receiver) => {
    const result = await deliver(receiver(), () => builder().vibe('tap', builder().after(400, 'pulse')).notify('Hi'))
    expect(result).toMatchObject({
      status: 200,
      body: {
        success: true,
        vibe: {
          sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 400 }],
          message: 'Hi',
          show_ring_ui_notif: true,
        },
      },
    })
  })

  it("a refused reply is logged in the rules' words, not as schema paths", async () => {
    const fourSteps = { sequence: Array(4).fill({ type: 'tap' }) }
    const result = await deliver(cjs, () => fourSteps)
    expect(result.status).toBe(500)
    expect(result.logged.join('\n')).toMatch(/a vibe has 1 to 3 steps \(sequence\), this one has 4/)
    expect(result.logged.join('\n')).not.toMatch(/expected boolean/)
  })
})
