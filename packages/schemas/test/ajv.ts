// The published JSON Schemas as validators, for this package's tests and the cross-package suites
// in test/schemas: ajv for draft 2020-12, strict, with `format` asserted (timestamps are `date-time`).
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { type JsonObject, jsonSchemas } from '../src/index.js'

/** A fresh ajv: strict, every error reported, formats asserted. */
export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats.default(ajv)
  return ajv
}

const ajv = strictAjv()
const compiled = new Map<string, ReturnType<Ajv2020['compile']>>()

/** What the published schema `name` finds wrong with a value: `[]` when it accepts it. */
export function schemaErrors(name: string, value: unknown): string[] {
  let validate = compiled.get(name)
  if (!validate) {
    const schema = jsonSchemas[name]
    if (!schema) throw new Error(`no published schema named ${name}`)
    validate = ajv.compile(schema as JsonObject)
    compiled.set(name, validate)
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`)
}
