// @ringhook/core ships the parts of zod/mini it uses inside its dist (tsup `noExternal`, see
// packages/core/tsup.config.ts): a small Workers bundle and a fast cold start. These tests fail if
// that is lost, and prove what the private copy of zod must still do next to the app's own zod.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { runSize } from '../../bench/src/size/run.js'
import { assertBuilt, ROOT } from '../runtimes/built.js'

type Core = typeof import('@ringhook/core/api')
type Zod = typeof import('../../packages/testing/node_modules/zod/index.js')

// The app's zod: the one @ringhook/simulator builds its inputs with.
const { z } = createRequire(join(ROOT, 'packages', 'testing', 'package.json'))('zod') as Zod

const dist = join(ROOT, 'packages', 'core', 'dist')
const copies: { name: string; core: Core }[] = []

beforeAll(async () => {
  assertBuilt('core')
  copies.push({ name: 'ESM', core: (await import(pathToFileURL(join(dist, 'api.js')).href)) as Core })
  copies.push({ name: 'CommonJS', core: createRequire(import.meta.url)(join(dist, 'api.cjs')) as Core })
})

describe("core's built dist", () => {
  // Every built file: the entries (index, adapter, api) and the chunks they share.
  const built = readdirSync(dist).filter((file) => /\.c?js$/.test(file))
  it.each(built)('%s loads no zod module at run time', (file) => {
    const code = readFileSync(join(dist, file), 'utf8')
    expect(code).not.toMatch(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']zod(?:\/[^"']*)?["']/)
  })

  it('makes a Workers bundle with one gesture handler under 30 KB gzipped', async () => {
    // The bench's own measurement (Wrangler's esbuild settings, from dist). 103.3 KB with zod classic's
    // namespace import; 22.6 KB on zod/mini; classic zod imported shakeably would be ~38 KB. The
    // target is 40 KB: 30 KB leaves room to grow and still catches a return to zod classic.
    const rows = await runSize()
    const ringhook = rows.find((row) => row.app === 'ringhook')
    expect(ringhook?.gzipBytes).toBeLessThan(30_000)
  })
})

describe.each([0, 1])("core's private zod next to the app's zod (copy %#: ESM, CommonJS)", (index) => {
  const core = () => (copies[index] as { core: Core }).core

  it("parses with the exported schemas' own methods, in core's words", () => {
    const { triggerRequestSchema, notificationResponseSchema } = core()
    expect(notificationResponseSchema.parse('emoji:👍')).toBe('emoji:👍')
    const refused = triggerRequestSchema.safeParse({ user_app_id: 'u', app_id: 'a', sequence: [{ type: 1 }] })
    expect(refused.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'sequence.0.type: expected one of "tap", "pulse"',
    ])
  })

  it("composes into the app's zod classic objects, as the simulator's answer input does", () => {
    // packages/simulator/src/inputs.ts: z.strictObject({ response: notificationResponseSchema, wait })
    const answer = z.strictObject({ response: core().notificationResponseSchema, wait: z.boolean().optional() })
    expect(answer.parse({ response: 'yes', wait: true })).toEqual({ response: 'yes', wait: true })
    const refused = answer.safeParse({ response: 'maybe' })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['response', 'expected "yes", "no", "dismiss" or "emoji:<emoji>"'],
    ])
    expect(z.array(core().notificationResponseSchema).safeParse(['no', 'emoji:']).success).toBe(false)
  })

  it("is a copy apart: its schemas are not instances of the app's z.ZodType (the documented trade-off)", () => {
    expect(core().notificationResponseSchema instanceof z.ZodType).toBe(false)
  })
})
