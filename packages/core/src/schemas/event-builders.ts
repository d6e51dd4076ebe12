import * as z from 'zod/mini'
import type { EventName, GestureType, WebhookEvent } from './events.js'
import { issueMessages } from './messages.js'
import { once } from './once.js'
import { describedAs, isTimestamp, named, ruleAsJsonSchema } from './refinements.js'

// Every schema here is built by a function, on first use (./once.ts): importing core builds none of
// them, and a receiver builds an event's schema only to word the issues of an invalid delivery (a
// valid one passes the predicate compiled from its plan, ./plans.generated.ts). The api entry builds
// them all as constants (./event-schemas.ts), with their documentation.

/** A string of at least one character. */
const nonEmpty = () => z.string(issueMessages).check(z.minLength(1))

/** See `isoTimestamp` in ./event-schemas.ts. */
export const timestampSchema = once(() => {
  const rule = { rule: 'isTimestamp' } as const
  const schema = z
    .string(issueMessages)
    .check(named(z.refine(isTimestamp, { message: 'must be an ISO 8601 timestamp' }), rule))
  return describedAs(schema, ruleAsJsonSchema(rule))
})

/** See `notificationResponseSchema` in ./event-schemas.ts. */
export const responseSchema = once(() =>
  z.union([z.enum(['yes', 'no', 'dismiss'], issueMessages), z.templateLiteral(['emoji:', nonEmpty()], issueMessages)], {
    error: () => 'expected "yes", "no", "dismiss" or "emoji:<emoji>"',
  }),
)

/** See `gestureTypeSchema` in ./event-schemas.ts. */
export const gestureNameSchema = once((): z.ZodMiniType<GestureType, string> => nonEmpty())

/**
 * Fields every webhook carries. The schemas are loose, so extra fields the service adds are kept at
 * run time; the event types below name only the documented ones (see `Closed` and `withExtras`).
 */
const envelope = () => ({
  user_app_id: nonEmpty(),
  /** The app's own identifier for the user, present when the user linked their account. */
  external_user_id: z.optional(z.string(issueMessages)),
  app_id: nonEmpty(),
  timestamp: timestampSchema(),
})

const emptyData = () => z.looseObject({}, issueMessages)

const lifecycle =
  <const N extends string>(name: N) =>
  () =>
    z.looseObject({ event: z.literal(name, issueMessages), ...envelope(), data: emptyData() }, issueMessages)

/** How each documented event's schema is built, in the service's lifecycle order where one applies. */
export const EVENT_BUILDERS = {
  gesture: () =>
    z.looseObject(
      {
        event: z.literal('gesture', issueMessages),
        /** The gesture performed. */
        gesture_type: gestureNameSchema(),
        ...envelope(),
        data: emptyData(),
      },
      issueMessages,
    ),
  'app.installed': lifecycle('app.installed'),
  'app.activated': lifecycle('app.activated'),
  'control.passive': lifecycle('control.passive'),
  'app.deactivated': lifecycle('app.deactivated'),
  'app.uninstalled': lifecycle('app.uninstalled'),
  'notification.responded': () =>
    z.looseObject(
      {
        event: z.literal('notification.responded', issueMessages),
        ...envelope(),
        data: z.looseObject({ event_id: nonEmpty(), response: responseSchema() }, issueMessages),
      },
      issueMessages,
    ),
}

/** Each documented event's schema, by the event's name. */
export type EventSchemas = { [N in keyof typeof EVENT_BUILDERS]: ReturnType<(typeof EVENT_BUILDERS)[N]> }

const built = new Map<string, z.ZodMiniType<WebhookEvent>>()

/** The schema of one documented event, built the first time it is asked for. */
export function eventSchema<N extends EventName>(name: N): EventSchemas[N] {
  let schema = built.get(name)
  if (schema === undefined) {
    schema = EVENT_BUILDERS[name]() as z.ZodMiniType<WebhookEvent>
    built.set(name, schema)
  }
  return schema as unknown as EventSchemas[N]
}

/** The names of the event schemas built so far: how a test sees that importing core builds none. */
export const builtEventSchemas = (): string[] => [...built.keys()]

/** See `unknownEventSchema` in ./event-schemas.ts. */
export const anyEventSchema = once(() =>
  z.looseObject(
    {
      /** The event's name. */
      event: nonEmpty(),
    },
    issueMessages,
  ),
)
