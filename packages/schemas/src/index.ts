/**
 * The ring-haptics service as standard documents, generated from `@ringhook/core`'s zod schemas: a
 * JSON Schema (draft 2020-12) for every webhook payload and for the gesture reply, an OpenAPI 3.1
 * document of the /v1 API and its webhooks, and signed test vectors for the webhook signature. The
 * same documents are files of this package (`@ringhook/schemas/openapi.json`, ...), for tools that
 * read files rather than modules.
 *
 * @packageDocumentation
 */
import openapi from '../openapi.json' with { type: 'json' }
import vectors from '../vectors/signatures.json' with { type: 'json' }
import { schemaFiles } from './files.generated.js'

/** A JSON value, as the documents are made of. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject
/** A JSON object: a whole document, or a JSON Schema. */
export type JsonObject = { readonly [key: string]: JsonValue }

// TypeScript infers a literal type for each file, with `?: undefined` where array items differ in
// shape; they are JSON by construction (generate/documents.ts), so each is typed as such once, here.
const asJson = (file: object): JsonObject => file as JsonObject

/** The OpenAPI 3.1 document of the service: the /v1 API, with a webhook for every event. */
export const openApiDocument: JsonObject = asJson(openapi)

/**
 * The JSON Schemas (draft 2020-12) by name: `webhook-event` (any documented event), each event by its
 * name (`gesture`, `app.installed`, ...), and `gesture-reply`.
 */
export const jsonSchemas: Readonly<Record<string, JsonObject>> = Object.freeze(
  Object.fromEntries(Object.entries(schemaFiles).map(([name, { content }]) => [name, asJson(content)])),
)

/** One case of {@link signatureVectors}. */
export interface SignatureVector {
  /** A short name. */
  readonly name: string
  /** Whether a verifier must accept the request. */
  readonly valid: boolean
  /** Why, in words. */
  readonly reason: string
  /** The verifier's active secrets: any one may match. */
  readonly secrets: readonly string[]
  /** The verifier's clock, Unix seconds. */
  readonly now: number
  /** The `X-SERVICE-Timestamp` header's value; `null` when the header is absent. */
  readonly timestamp: string | null
  /** The request body exactly as sent, signed as its UTF-8 bytes. */
  readonly body: string
  /** The `X-SERVICE-Signature` header's value; `null` when the header is absent. */
  readonly signature: string | null
  /** For a valid case: the secret it was signed with, from which a signer must produce `signature`. */
  readonly signed_with?: string
  /** For an invalid case: the code ringhook's verifier gives (`signature_mismatch`, ...), for information. */
  readonly ringhook_reason?: string | null
}

/** The signed test vectors file: the scheme in words, the tolerance, and the cases. */
export interface SignatureVectors {
  /** How to use the cases. */
  readonly description: string
  /** The signature scheme in words: headers, signed string, algorithm, format. */
  readonly scheme: Readonly<Record<string, string>>
  /** How far a timestamp may be from the verifier's clock, either way. */
  readonly tolerance_seconds: number
  /** Valid and invalid requests, each with its reason. */
  readonly cases: readonly SignatureVector[]
}

/** Signed test vectors for the webhook signature: check a signer or a verifier against every case. */
export const signatureVectors: SignatureVectors = vectors as SignatureVectors

/** One published document: its name for `ringhook schema <name>`, its file in this package, its content. */
export interface PublishedDocument {
  /** `openapi`, a JSON Schema's name (see {@link jsonSchemas}), or `signature-vectors`. */
  readonly name: string
  /** The import path of its file, e.g. `@ringhook/schemas/openapi.json`. */
  readonly path: string
  /** What it is. */
  readonly title: string
  /** The document. */
  readonly content: JsonObject
}

/** Every published document, the OpenAPI document first. */
export const documents: readonly PublishedDocument[] = Object.freeze([
  { name: 'openapi', path: '@ringhook/schemas/openapi.json', title: 'OpenAPI 3.1 document', content: openApiDocument },
  ...Object.entries(schemaFiles).map(([name, { path }]) => {
    const content = jsonSchemas[name] as JsonObject
    return { name, path: `@ringhook/schemas/${path}`, title: `JSON Schema: ${String(content.title)}`, content }
  }),
  {
    name: 'signature-vectors',
    path: '@ringhook/schemas/vectors/signatures.json',
    title: 'Signed test vectors',
    content: asJson(vectors),
  },
])
