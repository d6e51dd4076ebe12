import * as z from 'zod/mini'
import { issueMessages as m } from './messages.js'
import { characterCount, describedAs } from './refinements.js'

/**
 * A schema the receiver checks on its hot path, written once in this form. From it come both
 * checks: `accepts`, a plain predicate that says "zod would accept this value and return it
 * unchanged", and `zod()`, the zod schema, built by zod's own constructors on first call.
 *
 * Why two: a delivery's payload and a handler's vibe are valid nearly always. zod's parse builds a
 * copy of a valid value to say so (~2 KB of garbage a delivery, ~4× the predicate's time), and
 * building the schemas takes ~5–7 ms of a cold start on Bun (bench/HISTORY.md). The predicate
 * answers every valid value without building zod's form; anything it does not pass is parsed by
 * zod, which gives the verdict and words the issues, so a refusal reads exactly as zod says it.
 *
 * Each combinator below holds the predicate and the zod constructor of one kind side by side; a
 * schema is written once with them (./events.ts, ./vibe.ts) and its type inferred from `zod()`.
 */
export interface Form<Z extends z.ZodMiniType = z.ZodMiniType> {
  /** Whether `zod()` accepts the value and returns it as it came. A `false` is left to zod. */
  readonly accepts: (value: unknown) => boolean
  /** The zod schema, built on first call and kept. */
  readonly zod: () => Z
  /** Whether `zod()` has been called: how a test sees that a valid delivery builds no zod schema. */
  readonly built: boolean
}

/** The zod schema of a form. */
export type ZodOf<F> = F extends Form<infer Z> ? Z : never

type Shape = Readonly<Record<string, Form>>
type ZodShape<S extends Shape> = { -readonly [K in keyof S]: ZodOf<S[K]> }

function form<Z extends z.ZodMiniType>(accepts: (value: unknown) => boolean, build: () => Z): Form<Z> {
  let built: Z | undefined
  return {
    accepts,
    zod: () => (built ??= build()),
    get built() {
      return built !== undefined
    },
  }
}

/** A string of at least `min` characters (code points, as zod counts them). */
export function text(min = 0) {
  // UTF-16 units decide a minimum unless they fall between it and twice it.
  const long = (s: string): boolean => s.length >= min * 2 || (s.length >= min && characterCount(s) >= min)
  return form(
    (value) => typeof value === 'string' && long(value),
    () => (min > 0 ? z.string(m).check(z.minLength(min)) : z.string(m)),
  )
}

/** Exactly `value`. */
export const literal = <const T extends string>(value: T) =>
  form(
    (input) => input === value,
    () => z.literal(value, m),
  )

/** One of `values`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const set = new Set<unknown>(values)
  return form(
    (input) => set.has(input),
    () => z.enum(values, m),
  )
}

/** `prefix` followed by at least one character. */
export const prefixed = <const P extends string>(prefix: P) =>
  form(
    (value) => typeof value === 'string' && value.length > prefix.length && value.startsWith(prefix),
    () => z.templateLiteral([prefix, z.string(m).check(z.minLength(1))], m),
  )

/** A whole number from `min` to `max`. */
export const int = (min: number, max: number) =>
  form(
    (value) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
    () => z.int(m).check(z.gte(min), z.lte(max)),
  )

/** `true` or `false`. */
export const boolean = () =>
  form(
    (value) => typeof value === 'boolean',
    () => z.boolean(m),
  )

/** The inner form, or nothing. */
export const optional = <F extends Form>(inner: F) =>
  form(
    (value) => value === undefined || inner.accepts(value),
    () => z.optional(inner.zod() as ZodOf<F>),
  )

/** Any of the options; `error` words a value that matches none. */
export function union<const T extends readonly [Form, ...Form[]]>(options: T, error: string) {
  return form(
    (value) => options.some((option) => option.accepts(value)),
    () =>
      z.union(options.map((option) => option.zod()) as { -readonly [K in keyof T]: ZodOf<T[K]> }, {
        error: () => error,
      }),
  )
}

/** From `min` to `max` items, each one `item`. */
export function array<F extends Form>(item: F, min: number, max: number) {
  return form(
    (value) => {
      if (!Array.isArray(value) || value.length < min || value.length > max) return false
      for (let i = 0; i < value.length; i++) if (!item.accepts(value[i])) return false
      return true
    },
    () => z.array(item.zod() as ZodOf<F>, m).check(z.minLength(min), z.maxLength(max)),
  )
}

/** An object with the shape's fields; fields beyond it are kept. */
export const looseObject = <S extends Shape>(shape: S) =>
  form(objectCheck(shape, false), () => z.looseObject(zodShape(shape), m))

/** An object with the shape's fields and no other. */
export const strictObject = <S extends Shape>(shape: S) =>
  form(objectCheck(shape, true), () => z.strictObject(zodShape(shape), m))

/**
 * The form with one rule more: `test` says whether a value keeps it, `check` is the same rule as
 * zod's check (a `z.refine` or `z.superRefine` of the same function), which words the issue, and
 * `words` the same rule in JSON Schema's words (`ruleAsJsonSchema`), which `z.toJSONSchema` reads
 * from zod's registry since it cannot read a refinement.
 */
export function refine<Z extends z.ZodMiniType>(
  base: Form<Z>,
  test: (value: z.output<Z>) => boolean,
  check: () => z.core.$ZodCheck<z.output<Z>>,
  words: Record<string, unknown>,
): Form<Z> {
  return form(
    (value) => base.accepts(value) && test(value as z.output<Z>),
    () => describedAs(base.zod().check(check()) as Z, words),
  )
}

function zodShape<S extends Shape>(shape: S): ZodShape<S> {
  const out: Record<string, z.core.$ZodType> = {}
  for (const key of Object.keys(shape)) out[key] = (shape[key] as Form).zod()
  return out as ZodShape<S>
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * "Unchanged": an object keeps every field it came with, so the input is what zod's loose parse
 * would return. An own `__proto__` key (zod drops it) or a value that is not a plain object is left
 * to zod. A strict object's fields are zod's in another order when the input's order differs.
 */
function objectCheck(shape: Shape, strict: boolean): (value: unknown) => boolean {
  const keys = Object.keys(shape)
  const checks = keys.map((key) => (shape[key] as Form).accepts)
  const known = new Set(keys)
  return (value) => {
    if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return false
    for (let i = 0; i < keys.length; i++) if (!(checks[i] as Form['accepts'])(value[keys[i] as string])) return false
    if (strict) for (const key in value) if (!known.has(key)) return false
    return true
  }
}
