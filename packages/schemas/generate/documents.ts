import * as api from '@ringhook/core/api'
import { EVENT_NOTES } from '@ringhook/core/internal'
import { EVENT_SCHEMAS, type Json, publishedSchema } from './json-schema.js'
import { openApiDocument } from './openapi.js'
import { signatureVectors } from './vectors.js'

/** Every file the package publishes, by its path in the package, with its content. */
export function documents(): Map<string, Json> {
  const files = new Map<string, Json>()
  files.set('openapi.json', openApiDocument())
  files.set(
    'json-schema/webhook-event.json',
    publishedSchema(
      api.webhookEventSchema,
      'Ring haptics webhook',
      'Any webhook payload the service documents, told apart by `event`. Fields beyond these are allowed: the service may add some.',
    ),
  )
  for (const [name, schema] of Object.entries(EVENT_SCHEMAS)) {
    const description = EVENT_NOTES[name as api.EventName].about
    files.set(`json-schema/events/${name}.json`, publishedSchema(schema, `The \`${name}\` webhook`, description))
  }
  files.set(
    'json-schema/gesture-reply.json',
    publishedSchema(
      api.gestureReplySchema,
      'Gesture reply',
      'The body a receiver may answer a `gesture` webhook with: a vibe the service plays at once, by the trigger rules.',
    ),
  )
  files.set('vectors/signatures.json', signatureVectors())
  return files
}

/** A document as its file holds it: JSON with two-space indents and a final newline. */
export const fileText = (content: Json): string => `${JSON.stringify(content, null, 2)}\n`
