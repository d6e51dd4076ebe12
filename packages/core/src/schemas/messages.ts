import type * as z from 'zod/mini'

// The schemas are built on `zod/mini`, which loads no messages: without an error map every issue
// reads "Invalid input". zod's own cure, `z.config(z.locales.en())`, sets a map for every copy of
// zod in the process (its config lives on `globalThis`), so the app's own schemas would change too.
// Instead each schema here carries {@link issueMessages}, which words the issue codes the
// schemas can raise. A refinement's own message (`must be at most 80 characters`) is kept as is.

const list = (values: readonly unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ')

function kindOf(input: unknown): string {
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'number' && !Number.isInteger(input)) return Number.isNaN(input) ? 'NaN' : 'number'
  return typeof input
}

const plural = (count: number | bigint, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`

/** What a bound on a string, array or number reads as: `at least 1 character`, `at most 2000`. */
function bound(origin: string, side: 'at least' | 'at most', limit: number | bigint, inclusive = true): string {
  if (origin === 'string') return `${side} ${plural(limit, 'character')}`
  if (origin === 'array' || origin === 'set') return `${side} ${plural(limit, 'item')}`
  if (inclusive) return `${side} ${limit}`
  return `${side === 'at least' ? 'more' : 'less'} than ${limit}`
}

/**
 * Words one zod issue in plain English, without the offending value (it may be a secret):
 * `expected string, received number`, `must be at most 3 items`, `unknown field "priority"`.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `required, expected ${issue.expected}`
      return `expected ${issue.expected === 'int' ? 'an integer' : issue.expected}, received ${kindOf(issue.input)}`
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty'
      return `must be ${bound(issue.origin, 'at least', issue.minimum, issue.inclusive)}`
    case 'too_big':
      return `must be ${bound(issue.origin, 'at most', issue.maximum, issue.inclusive)}`
    case 'invalid_value':
      return issue.values.length === 1 ? `expected ${list(issue.values)}` : `expected one of ${list(issue.values)}`
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${list(issue.keys)}`
    case 'invalid_union': {
      const options = issue.options as readonly unknown[] | undefined
      if (issue.discriminator !== undefined && options?.length) return `expected one of ${list(options)}`
      return 'matches none of the allowed forms'
    }
    case 'invalid_format':
      return issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`
    default:
      return undefined // `custom`: a refinement names its own rule
  }
}

/** The params every schema of @ringhook/core is built with, so its issues read as {@link describeIssue} words them. */
export const issueMessages = { error: describeIssue } as const
