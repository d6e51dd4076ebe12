import type * as z from 'zod/mini'

/** Whether zod would accept a value, answered without building zod's copy of it. */
export type CompiledCheck = (value: unknown) => boolean

// What of a schema's internals a check reads. zod is bundled into core's dist (tsup.config.ts), so
// these are the internals of the one zod version core is built and tested with.
interface Internals {
  def: {
    type: string
    checks?: readonly { _zod: { def: { check: string; minimum?: number; fn?: (value: unknown) => unknown } } }[]
    coerce?: boolean
    shape?: Record<string, z.core.$ZodType>
    catchall?: z.core.$ZodType
    innerType?: z.core.$ZodType
    options?: readonly z.core.$ZodType[]
  }
  values?: ReadonlySet<unknown>
  pattern?: RegExp
}

const internals = (schema: z.core.$ZodType): Internals => schema._zod as unknown as Internals

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Compiles a zod/mini schema into a plain predicate, for the kinds the webhook event schemas are
 * made of: loose objects, strings with length and refinement checks, literals, enums, template
 * literals, optionals and unions. `undefined` for anything else, which zod then parses alone.
 *
 * Why: a delivery's payload is valid nearly always, and for these kinds zod's result is then the
 * input itself, field for field. zod's parse builds that copy (a result object and an issues array
 * per field, ~2 KB of garbage a delivery) to say so; the predicate says it in a fifth of the time
 * (schemas/compiled-check.test.ts pins both). The schema stays the one definition: the predicate
 * reads it, and answers only "zod would accept this unchanged". Any other answer, including every
 * invalid payload, goes to zod, which words the issues.
 *
 * "Unchanged": a loose object keeps every field, so the input is returned as it came, in its own
 * key order; an object with an own `__proto__` key, which zod drops, or not a plain object, fails
 * the predicate and is left to zod.
 */
export function compileCheck(schema: z.core.$ZodType): CompiledCheck | undefined {
  const zod = internals(schema)
  const { def } = zod
  switch (def.type) {
    case 'string':
      return def.coerce ? undefined : stringCheck(def.checks ?? [])
    case 'literal':
    case 'enum': {
      const values = zod.values
      return values ? (value) => values.has(value) : undefined
    }
    case 'template_literal': {
      const pattern = zod.pattern
      if (!pattern || pattern.global || pattern.sticky) return undefined
      return (value) => typeof value === 'string' && pattern.test(value)
    }
    case 'optional': {
      const inner = def.innerType && compileCheck(def.innerType)
      return inner && ((value) => value === undefined || inner(value))
    }
    case 'union':
      return unionCheck(def.options ?? [])
    case 'object':
      return def.checks?.length ? undefined : objectCheck(def.shape ?? {}, def.catchall)
    default:
      return undefined
  }
}

function stringCheck(checks: NonNullable<Internals['def']['checks']>): CompiledCheck | undefined {
  const tests: CompiledCheck[] = []
  for (const check of checks) {
    const { check: kind, minimum, fn } = check._zod.def
    if (kind === 'min_length' && typeof minimum === 'number') tests.push((value) => (value as string).length >= minimum)
    // A refinement passes on `true` only: a promise (an async refinement) is left to zod.
    else if (kind === 'custom' && typeof fn === 'function') tests.push((value) => fn(value) === true)
    else return undefined
  }
  return (value) => {
    if (typeof value !== 'string') return false
    for (const test of tests) if (!test(value)) return false
    return true
  }
}

function unionCheck(options: readonly z.core.$ZodType[]): CompiledCheck | undefined {
  const compiled: CompiledCheck[] = []
  for (const option of options) {
    const check = compileCheck(option)
    if (!check) return undefined
    compiled.push(check)
  }
  return (value) => {
    for (const check of compiled) if (check(value)) return true
    return false
  }
}

/** Loose objects only (extra fields kept as they are); a strict or stripping object changes its input. */
function objectCheck(
  shape: Record<string, z.core.$ZodType>,
  catchall: z.core.$ZodType | undefined,
): CompiledCheck | undefined {
  if (!catchall || internals(catchall).def.type !== 'unknown') return undefined
  const keys: string[] = []
  const checks: CompiledCheck[] = []
  for (const [key, field] of Object.entries(shape)) {
    const check = compileCheck(field)
    if (!check || key === '__proto__') return undefined
    keys.push(key)
    checks.push(check)
  }
  return (value) => {
    if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return false
    for (let i = 0; i < keys.length; i++) if (!(checks[i] as CompiledCheck)(value[keys[i] as string])) return false
    return true
  }
}
