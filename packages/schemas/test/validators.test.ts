// Independent tools read the documents as their standards define them: an OpenAPI 3.1 validator
// (@readme/openapi-parser) and a JSON Schema 2020-12 validator (ajv) in strict mode.
import { compileErrors, validate } from '@readme/openapi-parser'
import { WEBHOOK_DELIVERY } from '@ringhook/core/api'
import { DEFAULT_TOLERANCE_SECONDS } from '@ringhook/core/signature'
import { describe, expect, it } from 'vitest'
import { type JsonObject, jsonSchemas, openApiDocument } from '../src/index.js'
import { strictAjv } from './ajv.js'

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 to @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(openApiDocument) as never)
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    expect(result.warnings).toEqual([])
  })

  it('is refused by the same validator when broken (the check is real)', async () => {
    const broken = structuredClone(openApiDocument) as Record<string, unknown>
    delete broken.info
    expect((await validate(broken as never)).valid).toBe(false)
  })

  it('has every /v1 endpoint of the spec and a webhook for every event', () => {
    const paths = openApiDocument.paths as JsonObject
    expect(Object.keys(paths).sort()).toEqual([
      '/v1/apps/{app_id}/installs',
      '/v1/apps/{app_id}/installs/@me',
      '/v1/apps/{app_id}/users',
      '/v1/apps/{app_id}/users/{user_app_id}',
      '/v1/events/{event_id}/response',
      '/v1/vibes/patterns',
      '/v1/vibes/trigger',
    ])
    const names = Object.keys(jsonSchemas).filter((name) => name !== 'webhook-event' && name !== 'gesture-reply')
    expect(Object.keys(openApiDocument.webhooks as JsonObject)).toEqual(names)
  })

  it('says how every webhook is signed, acknowledged and retried', () => {
    for (const [name, item] of Object.entries(openApiDocument.webhooks as Record<string, { post: JsonObject }>)) {
      const { parameters, security, description } = item.post as {
        parameters: { name: string; in: string; required: boolean }[]
        security: unknown[]
        description: string
      }
      expect(
        parameters.map((p) => [p.name, p.in, p.required]),
        name,
      ).toEqual([
        ['X-SERVICE-Signature', 'header', true],
        ['X-SERVICE-Timestamp', 'header', true],
      ])
      expect(security, name).toEqual([]) // signed, not the API key
      expect(description).toContain(`Answer 2xx within ${WEBHOOK_DELIVERY.ackTimeoutMs / 1000} seconds`)
      expect(description).toContain(
        `after ${WEBHOOK_DELIVERY.retryDelaysMs
          .map((ms) => `${ms / 1000} s`)
          .join(', ')
          .replace(/, ([^,]*)$/, ' and $1')}`,
      )
      expect(description).toContain(`more than\n${DEFAULT_TOLERANCE_SECONDS} seconds`)
    }
  })

  it('compiles every component schema with ajv', () => {
    const ajv = strictAjv()
    const { schemas } = openApiDocument.components as { schemas: Record<string, JsonObject> }
    for (const [name, schema] of Object.entries(schemas)) {
      expect(() => ajv.compile(schema), name).not.toThrow()
    }
  })
})

describe('the JSON Schemas', () => {
  it.each(Object.keys(jsonSchemas))('%s compiles with ajv (draft 2020-12, strict)', (name) => {
    const schema = jsonSchemas[name] as JsonObject
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(() => strictAjv().compile(schema)).not.toThrow()
  })
})
