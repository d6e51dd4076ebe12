import type * as z from 'zod/mini'
import { nameOf, type RefinementName } from './refinements.js'

/** A value a literal or an enum may hold, as JSON writes it. */
type Primitive = string | number | boolean | null

/**
 * What a schema accepts, as plain data: enough to compile a predicate from (./compiled-check.ts)
 * without building the zod schema. Read off the schema by {@link planOf}; the plans of the webhook
 * events and the vibe are kept in ./plans.ts, and a test fails when one no longer matches its schema.
 */
export type Plan =
  | { kind: 'string'; min?: number; rules?: RefinementName[] }
  | { kind: 'values'; values: Primitive[] }
  | { kind: 'pattern'; source: string; flags: string }
  | { kind: 'optional'; inner: Plan }
  | { kind: 'union'; options: Plan[] }
  | { kind: 'object'; extra: 'keep' | 'refuse'; fields: [string, Plan][]; rules?: RefinementName[] }
  | { kind: 'array'; item: Plan; min?: number; max?: number }
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'boolean' }

// What of a schema's internals a plan reads. zod is bundled into core's dist (tsup.config.ts), so
// these are the internals of the one zod version core is built and tested with.
interface Check {
  _zod: { def: { check: string; minimum?: number; maximum?: number; value?: unknown; inclusive?: boolean } }
}
interface Internals {
  def: {
    type: string
    check?: string
    format?: string
    checks?: readonly Check[]
    coerce?: boolean
    shape?: Record<string, z.core.$ZodType>
    catchall?: z.core.$ZodType
    innerType?: z.core.$ZodType
    element?: z.core.$ZodType
    options?: readonly z.core.$ZodType[]
  }
  values?: ReadonlySet<unknown>
  pattern?: RegExp
}

const internals = (schema: z.core.$ZodType): Internals => schema._zod as unknown as Internals

/**
 * The plan of a zod/mini schema made of the kinds the webhook and vibe schemas use (objects, strings,
 * literals, enums, template literals, optionals, unions, arrays, integers, booleans) with length,
 * bound and registered refinement checks; `undefined` for anything else.
 */
export function planOf(schema: z.core.$ZodType): Plan | undefined {
  const { def, values, pattern } = internals(schema)
  switch (def.type) {
    case 'string':
      return def.coerce ? undefined : stringPlan(def.checks ?? [])
    case 'literal':
    case 'enum':
      return values && [...values].every(isPrimitive)
        ? { kind: 'values', values: [...values] as Primitive[] }
        : undefined
    case 'template_literal':
      return pattern && !pattern.global && !pattern.sticky
        ? { kind: 'pattern', source: pattern.source, flags: pattern.flags }
        : undefined
    case 'optional': {
      const inner = def.innerType && planOf(def.innerType)
      return inner && { kind: 'optional', inner }
    }
    case 'union':
      return all(def.options ?? [], (options) => ({ kind: 'union', options }))
    case 'object':
      return objectPlan(def)
    case 'array':
      return arrayPlan(def)
    case 'number':
      return def.check === 'number_format' && def.format === 'safeint' && !def.coerce
        ? intPlan(def.checks ?? [])
        : undefined
    case 'boolean':
      return def.coerce ? undefined : { kind: 'boolean' }
    default:
      return undefined
  }
}

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value)

function all<T>(schemas: readonly z.core.$ZodType[], make: (plans: Plan[]) => T): T | undefined {
  const plans: Plan[] = []
  for (const schema of schemas) {
    const plan = planOf(schema)
    if (!plan) return undefined
    plans.push(plan)
  }
  return make(plans)
}

/** The checks' registered rules, or `undefined` when one is not registered (./refinements.ts). */
function rulesOf(checks: readonly Check[]): RefinementName[] | undefined {
  const rules: RefinementName[] = []
  for (const check of checks) {
    const name = check._zod.def.check === 'custom' ? nameOf(check) : undefined
    if (!name) return undefined
    rules.push(name)
  }
  return rules
}

function stringPlan(checks: readonly Check[]): Plan | undefined {
  const plan: Extract<Plan, { kind: 'string' }> = { kind: 'string' }
  const rest = checks.filter((check) => {
    const { check: kind, minimum } = check._zod.def
    if (kind !== 'min_length' || typeof minimum !== 'number') return true
    plan.min = Math.max(plan.min ?? 0, minimum)
    return false
  })
  const rules = rulesOf(rest)
  if (!rules) return undefined
  if (rules.length > 0) plan.rules = rules
  return plan
}

function objectPlan(def: Internals['def']): Plan | undefined {
  const catchall = def.catchall && internals(def.catchall).def.type
  const extra = catchall === 'unknown' ? 'keep' : catchall === 'never' ? 'refuse' : undefined
  const rules = rulesOf(def.checks ?? [])
  if (!extra || !rules) return undefined
  const entries = Object.entries(def.shape ?? {})
  if (entries.some(([key]) => key === '__proto__')) return undefined
  return all(
    entries.map(([, field]) => field),
    (plans): Plan => ({
      kind: 'object',
      extra,
      fields: plans.map((plan, i) => [(entries[i] as [string, unknown])[0], plan]),
      ...(rules.length > 0 ? { rules } : {}),
    }),
  )
}

function arrayPlan(def: Internals['def']): Plan | undefined {
  const item = def.element && planOf(def.element)
  if (!item) return undefined
  const plan: Extract<Plan, { kind: 'array' }> = { kind: 'array', item }
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum } = check._zod.def
    if (kind === 'min_length' && typeof minimum === 'number') plan.min = minimum
    else if (kind === 'max_length' && typeof maximum === 'number') plan.max = maximum
    else return undefined
  }
  return plan
}

function intPlan(checks: readonly Check[]): Plan | undefined {
  const plan: Extract<Plan, { kind: 'int' }> = { kind: 'int' }
  for (const check of checks) {
    const { check: kind, value, inclusive } = check._zod.def
    if (typeof value !== 'number' || !inclusive) return undefined
    if (kind === 'greater_than') plan.min = value
    else if (kind === 'less_than') plan.max = value
    else return undefined
  }
  return plan
}
