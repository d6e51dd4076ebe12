import * as z from 'zod/mini'
import { issueMessages } from './messages.js'
import { characterCount, named, withinCharacters } from './refinements.js'

export { characterCount }

/** A string of at most `max` characters (code points). */
export const maxCharacters = (max: number) =>
  z.string(issueMessages).check(
    named(z.refine(withinCharacters(max), { message: `must be at most ${max} characters` }), {
      rule: 'withinCharacters',
      max,
    }),
  )
