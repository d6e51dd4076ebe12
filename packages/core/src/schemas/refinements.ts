import * as z from 'zod/mini'

// The rules the schemas check beyond types and lengths, each a function of its own: a form's
// predicate (./form.ts) and zod's refinement of the same form call the same function.

// The shape the service sends (`2026-11-22T10:00:00.000Z`), with each field in range: checked by
// one regex. Anything else Date.parse accepts is still a timestamp, only a slower one to check.
const ISO_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/

/**
 * The times a timestamp may name: from year 0000 to year 6428. Past them, a time cannot be kept
 * exactly where the kit orders events (a user's state packs its time in a double: exact below 2^47
 * ms, in year 6429), nor in a Postgres `timestamptz` much before year 0000 (4713 BC): an event stamped
 * there would change a state silently, or fail its write on every retry. The service stamps events
 * with the time they happen, so no real event is refused; a day's margin each side for an offset.
 */
export const TIMESTAMP_RANGE = Object.freeze({
  /** `0000-01-01T00:00:00Z`, less a day. */
  min: -62_167_219_200_000 - 86_400_000,
  /** `6429-01-01T00:00:00Z`, less a millisecond: below 2^47 ms (and with a day's offset, still). */
  max: 140_712_508_800_000 - 1,
})

/** The first four characters of a fast-path timestamp at most this: its year is in the range. */
const LAST_YEAR = '6428'

/**
 * Whether a string is a timestamp: ISO 8601 as the service sends it, or anything Date.parse reads,
 * within {@link TIMESTAMP_RANGE}.
 */
export const isTimestamp = (value: string): boolean => {
  if (ISO_DATE_TIME.test(value)) return value.slice(0, 4) <= LAST_YEAR
  const ms = Date.parse(value)
  return ms >= TIMESTAMP_RANGE.min && ms <= TIMESTAMP_RANGE.max
}

/** Length in Unicode code points, so an emoji counts as one character, not two UTF-16 units. */
export const characterCount = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

/** A test that a string has at most `max` characters (code points). */
export const withinCharacters =
  (max: number) =>
  (text: string): boolean =>
    characterCount(text) <= max

type Notified = { message?: string | undefined; show_ring_ui_notif?: boolean | undefined }

/** Whether a vibe keeps the rule shared by replies and triggers: a Ring UI notification needs a message. */
export const hasMessageIfNotified = (value: Notified): boolean =>
  value.show_ring_ui_notif !== true || Boolean(value.message?.trim())

/** Adds the rule shared by replies and triggers: a Ring UI notification needs a message. */
export function requireMessageWithNotification(
  value: { message?: string | undefined; show_ring_ui_notif?: boolean | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  if (!hasMessageIfNotified(value)) {
    ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when show_ring_ui_notif is true' })
  }
}

/** A rule by name, with the number it takes if any: what {@link ruleAsJsonSchema} words. */
export type RefinementName =
  | { rule: 'isTimestamp' }
  | { rule: 'withinCharacters'; max: number }
  | { rule: 'messageWithNotification' }

/**
 * A rule in JSON Schema's words. zod's `z.toJSONSchema` cannot read a refinement, so each schema that
 * applies one also carries these words in zod's registry, which `z.toJSONSchema` reads: the published
 * JSON Schemas (`@ringhook/schemas`) then refuse what the rule refuses. JSON Schema counts a string's
 * length in code points, as `withinCharacters` does; `format` is an annotation there unless a validator
 * asserts it, and a receiver also takes any timestamp `Date.parse` reads.
 */
export function ruleAsJsonSchema(name: RefinementName): Record<string, unknown> {
  switch (name.rule) {
    case 'isTimestamp':
      return { format: 'date-time' }
    case 'withinCharacters':
      return { maxLength: name.max }
    case 'messageWithNotification':
      // `\S`: a message of only whitespace is no message, as `trim()` sees it.
      return {
        if: { properties: { show_ring_ui_notif: { const: true } }, required: ['show_ring_ui_notif'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, never awaited
        then: { properties: { message: { type: 'string', pattern: '\\S' } }, required: ['message'] },
      }
  }
}

/** Gives a schema its rules' JSON Schema words (several are joined with `allOf`); returns the schema. */
export function describedAs<S extends z.core.$ZodType>(schema: S, ...words: Record<string, unknown>[]): S {
  z.globalRegistry.add(schema, words.length === 1 ? (words[0] as Record<string, unknown>) : { allOf: words })
  return schema
}
