// Type tests: checked by `pnpm typecheck`, never run. Each `@ts-expect-error` line must fail to
// compile; if it ever compiles, tsc reports the unused directive and the typecheck fails.
import {
  createReceiver,
  type EventName,
  type EventOf,
  type UnknownEvent,
  type WebhookEvent,
  withExtras,
} from '@ringhook/core'
import type {
  GestureEvent,
  GestureType,
  Install,
  NotificationRespondedEvent,
  NotificationResponse,
  TriggerResult,
  webhookEventSchema,
} from '@ringhook/core/api'
import type { EVENTS } from '@ringhook/core/internal'
import { expectTypeOf } from 'vitest'
import type { z } from 'zod'

declare const gesture: GestureEvent
declare const responded: NotificationRespondedEvent
declare const installed: EventOf<'app.installed'>

// Misspelt fields are compile errors, at the top level and in `data`.
// @ts-expect-error gesture_typ is not a field
gesture.gesture_typ
// @ts-expect-error user_ap_id is not a field
installed.user_ap_id
// @ts-expect-error evnt_id is not a field of data
responded.data.evnt_id
// @ts-expect-error lifecycle events carry an empty data object
installed.data.event_id

// The spec's fields, documented optional ones included.
expectTypeOf(gesture.user_app_id).toEqualTypeOf<string>()
expectTypeOf(gesture.external_user_id).toEqualTypeOf<string | undefined>()
expectTypeOf(responded.data.event_id).toEqualTypeOf<string>()
expectTypeOf<keyof GestureEvent>().toEqualTypeOf<
  'event' | 'gesture_type' | 'user_app_id' | 'external_user_id' | 'app_id' | 'timestamp' | 'data'
>()

// The documented fields' types, as handlers meet them.
expectTypeOf(gesture.event).toEqualTypeOf<'gesture'>()
expectTypeOf(gesture.timestamp).toEqualTypeOf<string>()
expectTypeOf<keyof typeof gesture.data>().toEqualTypeOf<never>()
expectTypeOf(responded.data.response).toEqualTypeOf<NotificationResponse>()
expectTypeOf<NotificationResponse>().toEqualTypeOf<'yes' | 'no' | 'dismiss' | `emoji:${string}`>()
// The names are the list's: core's list of events is the one place they are written.
expectTypeOf<EventName>().toEqualTypeOf<keyof typeof EVENTS & string>()
expectTypeOf<UnknownEvent>().toEqualTypeOf<{ [field: string]: unknown; event: string }>()

// gesture_type takes any string and still names the known ones (editors suggest them).
expectTypeOf<'double_tap'>().toExtend<GestureType>()
expectTypeOf<'a gesture from next year'>().toExtend<GestureType>()
expectTypeOf<GestureType>().toExtend<string>()

// The named union is the schema's inferred union, closed.
type Inferred = z.infer<typeof webhookEventSchema>
expectTypeOf<WebhookEvent['event']>().toEqualTypeOf<Inferred['event']>()

// Extra fields: one explicit way in, typed unknown.
const loose = withExtras(gesture)
expectTypeOf(loose.intensity).toEqualTypeOf<unknown>()
expectTypeOf(loose.data.anything).toEqualTypeOf<unknown>()
expectTypeOf(loose.gesture_type).toEqualTypeOf<GestureType>()

// The same holds inside a handler.
createReceiver({ secret: 's' }).on('gesture', (event) => {
  // @ts-expect-error misspelt in a handler
  void `Got ${event.gesture_typ}`
})

// API results are closed too.
declare const install: Install
declare const result: TriggerResult
// @ts-expect-error is_activ is not a field
install.is_activ
// @ts-expect-error evnt_id is not a field
result.evnt_id
