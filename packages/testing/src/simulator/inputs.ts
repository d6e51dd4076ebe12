import { notificationResponseSchema } from '@ringhook/core/api'
import { z } from 'zod'
import { describeIssues } from '../reply-check.js'
import { invalid } from './errors.js'

// Bodies of the control API (and arguments of the programmatic one): one definition for both.

const id = z.string().min(1).max(200)
const name = z.string().min(1).max(100)
const flag = z.boolean()
const wait = z.boolean().optional()
const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
const uuid = z.uuid({ error: 'must be UUID-shaped' })

export const appTypeSchema = z.enum(['control', 'device', 'preferred_notification'])

export const createKeyInput = z.strictObject({
  id: id.optional(),
  owner: id.optional(),
  user_id: id.nullable().optional(),
  token: z.string().min(8).max(200).optional(),
})
export const updateKeyInput = z.strictObject({ user_id: id.nullable() })

export const createUserInput = z.strictObject({
  id: id.optional(),
  name: name.optional(),
  ring_off: flag.optional(),
  companion_closed: flag.optional(),
})
export const updateUserInput = createUserInput.omit({ id: true })

export const createAppInput = z.strictObject({
  key_id: id,
  app_id: z
    .string()
    .regex(/^app_[A-Za-z0-9_-]{1,64}$/, 'must look like app_<id>')
    .optional(),
  name: name.optional(),
  type: appTypeSchema.optional(),
  webhook_url: webhookUrl.nullable().optional(),
  secret: z.string().min(8).max(200).optional(),
})
export const updateAppInput = z.strictObject({ name: name.optional(), webhook_url: webhookUrl.nullable().optional() })

export const installInput = z.strictObject({
  user_id: id,
  user_app_id: uuid.optional(),
  external_user_id: z.string().min(1).max(200).nullable().optional(),
  activate: flag.optional(),
  wait,
})
export const updateInstallInput = z.strictObject({
  permissions: z.strictObject({ vibes: flag.optional(), gestures: flag.optional() }).optional(),
  muted: flag.optional(),
  priority_slot: flag.optional(),
  external_user_id: z.string().min(1).max(200).nullable().optional(),
})
export const waitInput = z.strictObject({ wait })
export const gestureInput = z.strictObject({ gesture_type: z.string().min(1).max(64), wait })
export const answerInput = z.strictObject({ response: notificationResponseSchema, wait })

export type CreateKeyInput = z.input<typeof createKeyInput>
export type UpdateKeyInput = z.input<typeof updateKeyInput>
export type CreateUserInput = z.input<typeof createUserInput>
export type UpdateUserInput = z.input<typeof updateUserInput>
export type CreateAppInput = z.input<typeof createAppInput>
export type UpdateAppInput = z.input<typeof updateAppInput>
export type InstallInput = z.input<typeof installInput>
export type UpdateInstallInput = z.input<typeof updateInstallInput>
export type WaitInput = z.input<typeof waitInput>
export type GestureInput = z.input<typeof gestureInput>
export type AnswerInput = z.input<typeof answerInput>

/** Validates an input; a mistake is the control API's 400 with every broken rule named. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {})
  if (!parsed.success) throw invalid(describeIssues(parsed.error))
  return parsed.data
}
