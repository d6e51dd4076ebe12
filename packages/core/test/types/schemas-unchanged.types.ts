// Type tests: checked by `pnpm typecheck`, never run. The schemas moved from zod classic to
// `zod/mini` (a smaller, faster-loading Workers bundle and cold start; see bench/RESULTS.md). The
// public types must not change with them: `./classic/` keeps the classic definitions as they were,
// and every public type and every exported schema's input and output type is compared with them.
import type * as core from '@ringhook/core/api'
import { expectTypeOf } from 'vitest'
import type * as z from 'zod/mini'
import type * as classicApi from './classic/api.js'
import type * as classicEvents from './classic/events.js'
import type * as classicVibe from './classic/vibe.js'

type Classic = typeof classicApi & typeof classicEvents & typeof classicVibe

// Every public type, by name.
expectTypeOf<core.UserState>().toEqualTypeOf<classicApi.UserState>()
expectTypeOf<core.UserStateFilter>().toEqualTypeOf<classicApi.UserStateFilter>()
expectTypeOf<core.ResponseMode>().toEqualTypeOf<classicApi.ResponseMode>()
expectTypeOf<core.Install>().toEqualTypeOf<classicApi.Install>()
expectTypeOf<core.OwnInstall>().toEqualTypeOf<classicApi.OwnInstall>()
expectTypeOf<core.User>().toEqualTypeOf<classicApi.User>()
expectTypeOf<core.UserDetail>().toEqualTypeOf<classicApi.UserDetail>()
expectTypeOf<core.Permissions>().toEqualTypeOf<classicApi.Permissions>()
expectTypeOf<core.VibePatterns>().toEqualTypeOf<classicApi.VibePatterns>()
expectTypeOf<core.EventResponseRecord>().toEqualTypeOf<classicApi.EventResponseRecord>()
expectTypeOf<core.EmojiOption>().toEqualTypeOf<classicApi.EmojiOption>()
expectTypeOf<core.ResponseConfig>().toEqualTypeOf<classicApi.ResponseConfig>()
expectTypeOf<core.TriggerRequest>().toEqualTypeOf<classicApi.TriggerRequest>()
expectTypeOf<core.ServiceTriggerRequest>().toEqualTypeOf<classicApi.ServiceTriggerRequest>()
expectTypeOf<core.Delivery>().toEqualTypeOf<classicApi.Delivery>()
expectTypeOf<core.AwaitedResponse>().toEqualTypeOf<classicApi.AwaitedResponse>()
expectTypeOf<core.QueuedTriggerResult>().toEqualTypeOf<classicApi.QueuedTriggerResult>()
expectTypeOf<core.AwaitTriggerResult>().toEqualTypeOf<classicApi.AwaitTriggerResult>()
expectTypeOf<core.TriggerResult>().toEqualTypeOf<classicApi.TriggerResult>()
expectTypeOf<core.ApiErrorBody>().toEqualTypeOf<classicApi.ApiErrorBody>()
expectTypeOf<core.NotificationResponse>().toEqualTypeOf<classicEvents.NotificationResponse>()
expectTypeOf<core.GestureEvent>().toEqualTypeOf<classicEvents.GestureEvent>()
expectTypeOf<core.AppInstalledEvent>().toEqualTypeOf<classicEvents.AppInstalledEvent>()
expectTypeOf<core.AppActivatedEvent>().toEqualTypeOf<classicEvents.AppActivatedEvent>()
expectTypeOf<core.ControlPassiveEvent>().toEqualTypeOf<classicEvents.ControlPassiveEvent>()
expectTypeOf<core.AppDeactivatedEvent>().toEqualTypeOf<classicEvents.AppDeactivatedEvent>()
expectTypeOf<core.AppUninstalledEvent>().toEqualTypeOf<classicEvents.AppUninstalledEvent>()
expectTypeOf<core.NotificationRespondedEvent>().toEqualTypeOf<classicEvents.NotificationRespondedEvent>()
expectTypeOf<core.WebhookEvent>().toEqualTypeOf<classicEvents.WebhookEvent>()
expectTypeOf<core.UnknownEvent>().toEqualTypeOf<classicEvents.UnknownEvent>()
expectTypeOf<core.EventName>().toEqualTypeOf<classicEvents.EventName>()
expectTypeOf<core.VibePattern>().toEqualTypeOf<classicVibe.VibePattern>()
expectTypeOf<core.VibeStep>().toEqualTypeOf<classicVibe.VibeStep>()
expectTypeOf<core.VibePayload>().toEqualTypeOf<classicVibe.VibePayload>()
expectTypeOf<core.GestureReply>().toEqualTypeOf<classicVibe.GestureReply>()

// Each event by name, as handlers receive it.
expectTypeOf<core.EventOf<'gesture'>>().toEqualTypeOf<classicEvents.EventOf<'gesture'>>()
expectTypeOf<core.EventOf<'app.installed'>>().toEqualTypeOf<classicEvents.EventOf<'app.installed'>>()
expectTypeOf<core.EventOf<'app.activated'>>().toEqualTypeOf<classicEvents.EventOf<'app.activated'>>()
expectTypeOf<core.EventOf<'control.passive'>>().toEqualTypeOf<classicEvents.EventOf<'control.passive'>>()
expectTypeOf<core.EventOf<'app.deactivated'>>().toEqualTypeOf<classicEvents.EventOf<'app.deactivated'>>()
expectTypeOf<core.EventOf<'app.uninstalled'>>().toEqualTypeOf<classicEvents.EventOf<'app.uninstalled'>>()
expectTypeOf<core.EventOf<'notification.responded'>>().toEqualTypeOf<classicEvents.EventOf<'notification.responded'>>()

// Every exported schema parses to, and accepts, exactly what it did.
type Schemas = typeof core
type Same<K extends keyof Classic & keyof Schemas> = [
  z.input<Schemas[K] & z.core.$ZodType>,
  z.output<Schemas[K] & z.core.$ZodType>,
]
expectTypeOf<Same<'userStateSchema'>>().toEqualTypeOf<
  [z.input<Classic['userStateSchema']>, z.output<Classic['userStateSchema']>]
>()
expectTypeOf<Same<'userStateFilterSchema'>>().toEqualTypeOf<
  [z.input<Classic['userStateFilterSchema']>, z.output<Classic['userStateFilterSchema']>]
>()
expectTypeOf<Same<'responseModeSchema'>>().toEqualTypeOf<
  [z.input<Classic['responseModeSchema']>, z.output<Classic['responseModeSchema']>]
>()
expectTypeOf<Same<'installSchema'>>().toEqualTypeOf<
  [z.input<Classic['installSchema']>, z.output<Classic['installSchema']>]
>()
expectTypeOf<Same<'installListSchema'>>().toEqualTypeOf<
  [z.input<Classic['installListSchema']>, z.output<Classic['installListSchema']>]
>()
expectTypeOf<Same<'ownInstallSchema'>>().toEqualTypeOf<
  [z.input<Classic['ownInstallSchema']>, z.output<Classic['ownInstallSchema']>]
>()
expectTypeOf<Same<'userSchema'>>().toEqualTypeOf<[z.input<Classic['userSchema']>, z.output<Classic['userSchema']>]>()
expectTypeOf<Same<'userListSchema'>>().toEqualTypeOf<
  [z.input<Classic['userListSchema']>, z.output<Classic['userListSchema']>]
>()
expectTypeOf<Same<'permissionsSchema'>>().toEqualTypeOf<
  [z.input<Classic['permissionsSchema']>, z.output<Classic['permissionsSchema']>]
>()
expectTypeOf<Same<'userDetailSchema'>>().toEqualTypeOf<
  [z.input<Classic['userDetailSchema']>, z.output<Classic['userDetailSchema']>]
>()
expectTypeOf<Same<'vibePatternsSchema'>>().toEqualTypeOf<
  [z.input<Classic['vibePatternsSchema']>, z.output<Classic['vibePatternsSchema']>]
>()
expectTypeOf<Same<'eventResponseRecordSchema'>>().toEqualTypeOf<
  [z.input<Classic['eventResponseRecordSchema']>, z.output<Classic['eventResponseRecordSchema']>]
>()
expectTypeOf<Same<'emojiOptionSchema'>>().toEqualTypeOf<
  [z.input<Classic['emojiOptionSchema']>, z.output<Classic['emojiOptionSchema']>]
>()
expectTypeOf<Same<'responseConfigSchema'>>().toEqualTypeOf<
  [z.input<Classic['responseConfigSchema']>, z.output<Classic['responseConfigSchema']>]
>()
expectTypeOf<Same<'truncatableResponseConfigSchema'>>().toEqualTypeOf<
  [z.input<Classic['truncatableResponseConfigSchema']>, z.output<Classic['truncatableResponseConfigSchema']>]
>()
expectTypeOf<Same<'triggerRequestSchema'>>().toEqualTypeOf<
  [z.input<Classic['triggerRequestSchema']>, z.output<Classic['triggerRequestSchema']>]
>()
expectTypeOf<Same<'serviceTriggerRequestSchema'>>().toEqualTypeOf<
  [z.input<Classic['serviceTriggerRequestSchema']>, z.output<Classic['serviceTriggerRequestSchema']>]
>()
expectTypeOf<Same<'deliverySchema'>>().toEqualTypeOf<
  [z.input<Classic['deliverySchema']>, z.output<Classic['deliverySchema']>]
>()
expectTypeOf<Same<'awaitedResponseSchema'>>().toEqualTypeOf<
  [z.input<Classic['awaitedResponseSchema']>, z.output<Classic['awaitedResponseSchema']>]
>()
expectTypeOf<Same<'queuedTriggerResultSchema'>>().toEqualTypeOf<
  [z.input<Classic['queuedTriggerResultSchema']>, z.output<Classic['queuedTriggerResultSchema']>]
>()
expectTypeOf<Same<'awaitTriggerResultSchema'>>().toEqualTypeOf<
  [z.input<Classic['awaitTriggerResultSchema']>, z.output<Classic['awaitTriggerResultSchema']>]
>()
expectTypeOf<Same<'triggerResultSchema'>>().toEqualTypeOf<
  [z.input<Classic['triggerResultSchema']>, z.output<Classic['triggerResultSchema']>]
>()
expectTypeOf<Same<'apiErrorBodySchema'>>().toEqualTypeOf<
  [z.input<Classic['apiErrorBodySchema']>, z.output<Classic['apiErrorBodySchema']>]
>()
expectTypeOf<Same<'isoTimestamp'>>().toEqualTypeOf<
  [z.input<Classic['isoTimestamp']>, z.output<Classic['isoTimestamp']>]
>()
expectTypeOf<Same<'notificationResponseSchema'>>().toEqualTypeOf<
  [z.input<Classic['notificationResponseSchema']>, z.output<Classic['notificationResponseSchema']>]
>()
expectTypeOf<Same<'gestureTypeSchema'>>().toEqualTypeOf<
  [z.input<Classic['gestureTypeSchema']>, z.output<Classic['gestureTypeSchema']>]
>()
expectTypeOf<Same<'gestureEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['gestureEventSchema']>, z.output<Classic['gestureEventSchema']>]
>()
expectTypeOf<Same<'appInstalledEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['appInstalledEventSchema']>, z.output<Classic['appInstalledEventSchema']>]
>()
expectTypeOf<Same<'appActivatedEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['appActivatedEventSchema']>, z.output<Classic['appActivatedEventSchema']>]
>()
expectTypeOf<Same<'controlPassiveEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['controlPassiveEventSchema']>, z.output<Classic['controlPassiveEventSchema']>]
>()
expectTypeOf<Same<'appDeactivatedEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['appDeactivatedEventSchema']>, z.output<Classic['appDeactivatedEventSchema']>]
>()
expectTypeOf<Same<'appUninstalledEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['appUninstalledEventSchema']>, z.output<Classic['appUninstalledEventSchema']>]
>()
expectTypeOf<Same<'notificationRespondedEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['notificationRespondedEventSchema']>, z.output<Classic['notificationRespondedEventSchema']>]
>()
expectTypeOf<Same<'webhookEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['webhookEventSchema']>, z.output<Classic['webhookEventSchema']>]
>()
expectTypeOf<Same<'unknownEventSchema'>>().toEqualTypeOf<
  [z.input<Classic['unknownEventSchema']>, z.output<Classic['unknownEventSchema']>]
>()
expectTypeOf<Same<'vibePatternSchema'>>().toEqualTypeOf<
  [z.input<Classic['vibePatternSchema']>, z.output<Classic['vibePatternSchema']>]
>()
expectTypeOf<Same<'vibeStepSchema'>>().toEqualTypeOf<
  [z.input<Classic['vibeStepSchema']>, z.output<Classic['vibeStepSchema']>]
>()
expectTypeOf<Same<'vibeSequenceSchema'>>().toEqualTypeOf<
  [z.input<Classic['vibeSequenceSchema']>, z.output<Classic['vibeSequenceSchema']>]
>()
expectTypeOf<Same<'vibeMessageSchema'>>().toEqualTypeOf<
  [z.input<Classic['vibeMessageSchema']>, z.output<Classic['vibeMessageSchema']>]
>()
expectTypeOf<Same<'vibeSchema'>>().toEqualTypeOf<[z.input<Classic['vibeSchema']>, z.output<Classic['vibeSchema']>]>()
expectTypeOf<Same<'gestureReplySchema'>>().toEqualTypeOf<
  [z.input<Classic['gestureReplySchema']>, z.output<Classic['gestureReplySchema']>]
>()
