// A user's state in an app, on its own: the API's schemas and the list of events (the state a lifecycle
// event leads to) both name it, and neither imports the other.
import * as z from 'zod/mini'
import { issueMessages } from './messages.js'

/**
 * A user's state in an app: `active` (open, in the foreground), `passive` (in the background),
 * `inactive` (disabled).
 */
export const userStateSchema = z.enum(['active', 'passive', 'inactive'], issueMessages)

/** See {@link userStateSchema}. */
export type UserState = z.infer<typeof userStateSchema>
