// The scratch app both module systems run: a receiver on node:http answers one signed gesture.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'

type Core = typeof import('@ringhook/core')
type Node = typeof import('@ringhook/node')
type Adapter = typeof import('@ringhook/core/adapter')
type Api = typeof import('@ringhook/core/api')
type Store = typeof import('@ringhook/core/store')
type Signature = typeof import('@ringhook/core/signature')
type Schemas = typeof import('@ringhook/schemas')

/** The subpaths of `exports` resolve, with their declarations, in this module system too. */
export function checkSubpaths(adapter: Adapter, api: Api, store: Store): void {
  const answer = adapter.errorResponse('not_found')
  if (answer.status !== 404) throw new Error(`@ringhook/core/adapter: errorResponse gave ${answer.status}`)
  if (api.ACK_BODY !== '{"ok":true}') throw new Error(`@ringhook/core/api: ACK_BODY is ${api.ACK_BODY}`)
  if (store.MAX_DEDUP_KEY_LENGTH !== 256)
    throw new Error(`@ringhook/core/store: MAX_DEDUP_KEY_LENGTH is ${store.MAX_DEDUP_KEY_LENGTH}`)
}

/** The documents of @ringhook/schemas: the entry's values, and the same as files through `exports`. */
export function checkSchemas(schemas: Schemas): void {
  const require = createRequire(import.meta.url)
  const file = readFileSync(require.resolve('@ringhook/schemas/openapi.json'), 'utf8')
  if (
    schemas.openApiDocument.openapi !== '3.1.0' ||
    JSON.stringify(JSON.parse(file)) !== JSON.stringify(schemas.openApiDocument)
  ) {
    throw new Error('@ringhook/schemas: openapi.json and openApiDocument differ')
  }
  const gesture = require('@ringhook/schemas/json-schema/events/gesture.json') as { title?: string }
  if (gesture.title !== schemas.jsonSchemas.gesture?.title) throw new Error('@ringhook/schemas: gesture.json differs')
  const vectors = require('@ringhook/schemas/vectors/signatures.json') as { cases: unknown[] }
  if (vectors.cases.length !== schemas.signatureVectors.cases.length)
    throw new Error('@ringhook/schemas: vectors differ')
}

export async function playOneGesture(core: Core, node: Node, signature: Signature): Promise<void> {
  const secret = 'whsec_scratch'
  const receiver = core.createReceiver({ secret })
  receiver.on('gesture', (event) => core.vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
  const server = createServer(node.ringhook(receiver)).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: '3f1c2a9e-0000-4000-8000-000000000001',
    app_id: 'app_scratch',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signature.signWebhook({ secret, body })
  const response = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers, body })
  const reply = (await response.json()) as { vibe?: { message?: string } }
  server.close()
  if (response.status !== 200 || reply.vibe?.message !== 'Got double_tap') {
    throw new Error(`unexpected answer ${response.status} ${JSON.stringify(reply)}`)
  }
}
