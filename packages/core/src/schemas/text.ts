import * as z from 'zod/mini'
import { refine, text } from './form.js'
import { characterCount, ruleAsJsonSchema, withinCharacters } from './refinements.js'

export { characterCount }

/** The form of a string of at most `max` characters (code points). */
export const characters = (max: number) =>
  refine(
    text(),
    withinCharacters(max),
    () => z.refine(withinCharacters(max), { message: `must be at most ${max} characters` }),
    ruleAsJsonSchema({ rule: 'withinCharacters', max }),
  )

/** A string of at most `max` characters (code points). */
export const maxCharacters = (max: number) => characters(max).zod()
