import type * as z from 'zod/mini'
import { type InputIssue, ValidationError } from './errors.js'

/** zod's issues as field paths; an unknown key is named itself rather than its parent. */
export function issuesOf(error: z.core.$ZodError): InputIssue[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String)
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...base, key].join('.'), message: 'is not a known field' }))
    }
    return [{ field: base.join('.'), message: issue.message }]
  })
}

/** Parses an input, or throws {@link ValidationError} naming the first bad field (below `field`, if given). */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = issuesOf(result.error)
  throw new ValidationError(
    field === undefined ? issues : issues.map((i) => ({ ...i, field: i.field ? `${field}.${i.field}` : field })),
  )
}

/**
 * An identifier that goes into a path: a non-empty string that stays one segment. `.` and `..`
 * are dot segments: URL parsing removes them, so `users.get(app, '..')` would ask for the app's
 * collection instead. Anything else is percent-encoded by {@link segment} and cannot move the path.
 */
export function requireId(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ValidationError([{ field, message: 'must be a non-empty string' }])
  }
  if (value === '.' || value === '..') {
    throw new ValidationError([{ field, message: `must not be "${value}": it would change the request's path` }])
  }
  return value
}

/** One path segment; `@` stays readable so `@me` is sent as the spec writes it. */
export const segment = (value: string): string => encodeURIComponent(value).replaceAll('%40', '@')
