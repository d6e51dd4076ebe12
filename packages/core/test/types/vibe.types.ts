// Type tests: checked by `pnpm typecheck`, never run (see events.types.ts).
import { after, createReceiver, type Vibe, vibe } from '@ringhook/core'
import type { GestureReply, VibePattern, VibePayload, VibeStep, vibeSchema } from '@ringhook/core/api'
import { expectTypeOf } from 'vitest'
import type * as z from 'zod/mini'

// One to three steps.
vibe('tap')
vibe('tap', after(400, 'pulse'), 'tap')
// @ts-expect-error a vibe has at most three steps
vibe('tap', 'tap', 'tap', 'tap')
// @ts-expect-error a vibe has at least one step
vibe()
// @ts-expect-error a step is tap or pulse
vibe('buzz')
// @ts-expect-error after() takes a pattern
after(400, 'buzz')

expectTypeOf(vibe('tap').notify('Hi')).toEqualTypeOf<Vibe>()

const receiver = createReceiver({ secret: 's' })

// Only a handler of `gesture` alone may return a reply.
receiver.on('gesture', () => vibe('tap'))
receiver.on('gesture', () => ({ sequence: [{ type: 'pulse' as const }] }))
receiver.on('gesture', async () => ({ success: false }))
receiver.on('gesture', () => undefined)
// @ts-expect-error a lifecycle handler cannot reply
receiver.on('app.installed', () => vibe('tap'))
// @ts-expect-error neither can a handler of several events, gesture among them
receiver.on(['gesture', 'app.activated'], () => vibe('tap'))
// @ts-expect-error nor a catch-all handler
receiver.onAny(async () => vibe('tap'))
// @ts-expect-error a reply is a vibe, not any value
receiver.on('gesture', () => 'ok')

// A plain reply is checked by its type too: a misspelt field does not compile.
// @ts-expect-error sequnce is not a field of a vibe
receiver.on('gesture', () => ({ sequnce: [{ type: 'tap' as const }] }))

// The vibe's types, as a handler and a trigger meet them.
expectTypeOf<VibePattern>().toEqualTypeOf<'tap' | 'pulse'>()
expectTypeOf<VibeStep>().toEqualTypeOf<{ type: 'tap' | 'pulse'; delay_ms?: number | undefined }>()
expectTypeOf<VibePayload>().toEqualTypeOf<{
  sequence: VibeStep[]
  message?: string | undefined
  show_ring_ui_notif?: boolean | undefined
}>()
expectTypeOf<GestureReply>().toEqualTypeOf<{ success: boolean; vibe?: VibePayload | undefined }>()
expectTypeOf<z.input<typeof vibeSchema>>().toEqualTypeOf<VibePayload>()
