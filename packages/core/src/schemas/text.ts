import * as z from 'zod/mini'
import { issueMessages } from './messages.js'
import { characterCount, describedAs, named, ruleAsJsonSchema, withinCharacters } from './refinements.js'

export { characterCount }

/** A string of at most `max` characters (code points). */
export const maxCharacters = (max: number) => {
  const rule = { rule: 'withinCharacters', max } as const
  const schema = z
    .string(issueMessages)
    .check(named(z.refine(withinCharacters(max), { message: `must be at most ${max} characters` }), rule))
  return describedAs(schema, ruleAsJsonSchema(rule))
}
