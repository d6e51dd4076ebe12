import * as api from '@ringhook/core/api'
import { EVENTS } from '@ringhook/core/internal'
import * as z from 'zod'

// One zod schema as a JSON Schema (draft 2020-12), through zod's public `z.toJSONSchema`. Refinements
// zod cannot translate carry their JSON Schema words in core's definitions (`ruleAsJsonSchema`), so
// nothing about a payload is written here a second time.

/** A JSON value: what the published documents are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
/** A JSON object. */
export type JsonObject = { [key: string]: Json }

/**
 * The schema as a JSON Schema. `io: 'input'` describes what a validator takes (a field with a default
 * is optional there); `unrepresentable: 'throw'` makes a schema zod cannot express fail the generator
 * instead of turning into an empty, accept-anything schema.
 */
export function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output' = 'input'): JsonObject {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'throw', io }) as JsonObject
}

/** The same, without `$schema`: for a schema embedded in a larger document (OpenAPI components). */
export function embeddedSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output' = 'input'): JsonObject {
  const { $schema: _dialect, ...rest } = jsonSchemaOf(schema, io)
  return rest
}

/** Each documented event's schema, by the event's name, in the order of core's list of events. */
export const EVENT_SCHEMAS = Object.fromEntries(
  api.EVENT_NAMES.map((name): [api.EventName, z.core.$ZodType] => [name, EVENTS[name].zod()]),
) as Record<api.EventName, z.core.$ZodType>

/** A published JSON Schema file: the dialect, a title and what it is for first, then the schema. */
export function publishedSchema(schema: z.core.$ZodType, title: string, description: string): JsonObject {
  const { $schema, ...rest } = jsonSchemaOf(schema)
  return { $schema: $schema ?? null, title, description, ...rest }
}
