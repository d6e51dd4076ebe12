import { describeIssues, notificationResponseSchema } from '@ringhook/core/api'
import { z } from 'zod'
import { invalid } from './errors.js'

// Bodies of the control API (and arguments of the programmatic one): one definition for both.

const id = z.string().min(1).max(200)
const name = z.string().min(1).max(100)
const flag = z.boolean()
const wait = z.boolean().optional()
const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
const uuid = z.uuid({ error: 'must be UUID-shaped' })

/** The kinds of app: `control`, `device`, `preferred_notification`. */
export const appTypeSchema = z.enum(['control', 'device', 'preferred_notification'])

/** The body of `POST /_sim/keys`: every field optional; `user_id` links the key to a user account. */
export const createKeyInput = z.strictObject({
  id: id.optional(),
  owner: id.optional(),
  user_id: id.nullable().optional(),
  token: z.string().min(8).max(200).optional(),
})
/** The body of `PATCH /_sim/keys/:key_id`: link the key to a user account, or unlink it with null. */
export const updateKeyInput = z.strictObject({ user_id: id.nullable() })

/** The body of `POST /_sim/users`: every field optional. */
export const createUserInput = z.strictObject({
  id: id.optional(),
  name: name.optional(),
  ring_off: flag.optional(),
  companion_closed: flag.optional(),
})
/** The body of `PATCH /_sim/users/:user_id`. */
export const updateUserInput = createUserInput.omit({ id: true })

/** The body of `POST /_sim/apps`: the key whose owner gets the app, and optional details. */
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
/** The body of `PATCH /_sim/apps/:app_id`; a changed webhook URL regenerates the secret. */
export const updateAppInput = z.strictObject({
  name: name.optional(),
  webhook_url: webhookUrl.nullable().optional(),
  /** With a new webhook URL: keep the secret instead of regenerating it (the service always regenerates). */
  keep_secret: flag.optional(),
  /** With a new webhook URL: set this secret instead of a random one (the service always picks one). */
  secret: z.string().min(16).max(200).optional(),
})

/** The body of `POST /_sim/apps/:app_id/installs`: the user, and whether to activate at once. */
export const installInput = z.strictObject({
  user_id: id,
  user_app_id: uuid.optional(),
  external_user_id: z.string().min(1).max(200).nullable().optional(),
  activate: flag.optional(),
  wait,
})
/** The body of `PATCH /_sim/installs/:user_app_id`: permissions and app-level barriers. */
export const updateInstallInput = z.strictObject({
  permissions: z.strictObject({ vibes: flag.optional(), gestures: flag.optional() }).optional(),
  muted: flag.optional(),
  priority_slot: flag.optional(),
  external_user_id: z.string().min(1).max(200).nullable().optional(),
})
/** The body of a lifecycle action (`activate`, `passive`, `deactivate`, `uninstall`). */
export const waitInput = z.strictObject({ wait })
/** The body of `POST /_sim/installs/:user_app_id/gesture`. */
export const gestureInput = z.strictObject({ gesture_type: z.string().min(1).max(64), wait })
/** The body of `POST /_sim/notifications/:event_id/answer`: `yes`, `no`, `dismiss` or `emoji:<e>`. */
export const answerInput = z.strictObject({ response: notificationResponseSchema, wait })

/** `POST /_sim/installs/:user_app_id/events`: any documented event, its own fields over the list's sample. */
export const sendEventInput = z.strictObject({
  event: z.string().min(1).max(100),
  fields: z.record(z.string(), z.unknown()).optional(),
  wait,
})

/** What {@link Simulator.keys | sim.keys.create} takes, and the body of `POST /_sim/keys`. */
export type CreateKeyInput = z.input<typeof createKeyInput>
/** See {@link updateKeyInput}. */
export type UpdateKeyInput = z.input<typeof updateKeyInput>
/** What {@link Simulator.users | sim.users.create} takes, and the body of `POST /_sim/users`. */
export type CreateUserInput = z.input<typeof createUserInput>
/** What {@link Simulator.users | sim.users.update} takes, and the body of `PATCH /_sim/users/:user_id`. */
export type UpdateUserInput = z.input<typeof updateUserInput>
/** What {@link Simulator.apps | sim.apps.create} takes, and the body of `POST /_sim/apps`. */
export type CreateAppInput = z.input<typeof createAppInput>
/** The body of `POST /_sim/deliveries/resend`: every delivery that failed at or after `failed_since`. */
export const resendFailedInput = z.strictObject({ failed_since: z.iso.datetime({ offset: true }), wait })

/** See {@link resendFailedInput}. */
export type ResendFailedInput = z.input<typeof resendFailedInput>
/** What {@link Simulator.apps | sim.apps.update} takes, and the body of `PATCH /_sim/apps/:app_id`. */
export type UpdateAppInput = z.input<typeof updateAppInput>
/** What {@link Simulator.install | sim.install} takes, and the body of `POST /_sim/apps/:app_id/installs`. */
export type InstallInput = z.input<typeof installInput>
/** What {@link Simulator.updateInstall | sim.updateInstall} takes, and the body of `PATCH /_sim/installs/:user_app_id`. */
export type UpdateInstallInput = z.input<typeof updateInstallInput>
/** See {@link waitInput}. */
export type WaitInput = z.input<typeof waitInput>
/** See {@link gestureInput}. */
export type GestureInput = z.input<typeof gestureInput>
/** See {@link answerInput}. */
export type AnswerInput = z.input<typeof answerInput>
/** See {@link sendEventInput}. */
export type SendEventInput = z.input<typeof sendEventInput>

/** Validates an input; a mistake is the control API's 400 with every broken rule named. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {})
  if (!parsed.success) throw invalid(describeIssues(parsed.error))
  return parsed.data
}
