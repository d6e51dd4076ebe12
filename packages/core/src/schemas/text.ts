import * as z from 'zod/mini'
import { issueMessages } from './messages.js'

/** Length in Unicode code points, so an emoji counts as one character, not two UTF-16 units. */
export const characterCount = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

/** A string of at most `max` characters (code points). */
export const maxCharacters = (max: number) =>
  z
    .string(issueMessages)
    .check(z.refine((text) => characterCount(text) <= max, { message: `must be at most ${max} characters` }))
