import { describe, expect, it } from 'vitest'
import { eventSchema } from './event-builders.js'
import { EVENT_NAMES } from './events.js'
import { type Plan, planOf } from './plan.js'
import { EVENT_PLANS, GESTURE_REPLY_PLAN, VIBE_PLAN } from './plans.generated.js'
import { vibeSchemas } from './vibe-builders.js'

const plan = (schema: Parameters<typeof planOf>[0]): Plan => {
  const read = planOf(schema)
  if (!read) throw new Error('a schema the receiver checks on its fast path has no plan (plan.ts)')
  return read
}

/** A plan as source: an object's fields one to a line, each field's plan on its line. */
function source(value: Plan, indent = ''): string {
  if (value.kind !== 'object') return JSON.stringify(value)
  const { fields, ...rest } = value
  const inner = `${indent}    `
  const lines = fields.map(([key, field]) => `${inner}[${JSON.stringify(key)}, ${source(field, inner)}],`)
  const head = JSON.stringify(rest).slice(0, -1)
  return fields.length === 0 ? `${head},"fields":[]}` : `${head},"fields":[\n${lines.join('\n')}\n${indent}  ]}`
}

/** plans.generated.ts as the schemas say it should read. */
function render(): string {
  const events = EVENT_NAMES.map((name) => `  ${JSON.stringify(name)}: ${source(plan(eventSchema(name)), '')},`)
  const { vibe, gestureReply } = vibeSchemas()
  return [
    '// Generated from the schemas in events.ts and vibe.ts by plans.test.ts: do not edit. After changing a',
    '// schema, `pnpm vitest run packages/core/src/schemas/plans.test.ts -u` rewrites it.',
    "import type { EventName } from './events.js'",
    "import type { Plan } from './plan.js'",
    '',
    "/** Each documented event's plan. */",
    `export const EVENT_PLANS: Readonly<Record<EventName, Plan>> = {\n${events.join('\n')}\n}`,
    '',
    '/** The plan of a vibe (`vibeSchema`). */',
    `export const VIBE_PLAN: Plan = ${source(plan(vibe))}`,
    '',
    "/** The plan of a gesture's reply (`gestureReplySchema`). */",
    `export const GESTURE_REPLY_PLAN: Plan = ${source(plan(gestureReply))}`,
    '',
  ].join('\n')
}

describe('plans.generated.ts', () => {
  it('is what the schemas say: a schema changed without its plan fails here', async () => {
    await expect(render()).toMatchFileSnapshot('./plans.generated.ts')
  })

  it('holds the plans the receiver and vibe() compile', () => {
    for (const name of EVENT_NAMES) expect(EVENT_PLANS[name]).toEqual(planOf(eventSchema(name)))
    expect(VIBE_PLAN).toEqual(planOf(vibeSchemas().vibe))
    expect(GESTURE_REPLY_PLAN).toEqual(planOf(vibeSchemas().gestureReply))
  })
})
