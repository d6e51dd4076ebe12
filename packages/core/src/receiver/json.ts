export type DecodedJson = { ok: true; value: unknown } | { ok: false }

const PROTO_KEY = '__proto__'
// JSON writes a character of a key as itself or as `\uXXXX` (`\u005f_proto__`, `\u0070roto`):
// a body holding neither spelling cannot produce a `__proto__` key.
const ESCAPE = '\\u'
// Without `stream`, decode() keeps no state between calls, so one decoder serves every request.
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Decodes a body as strict UTF-8 JSON. `__proto__` keys are dropped at every depth, however the
 * JSON text spells them (with escapes too: JSON.parse decodes them first). JSON.parse
 * keeps them as harmless own properties, but an app that later merges the payload into another
 * object (`Object.assign`, an old deep-merge helper) would turn one into prototype pollution.
 */
export function decodeJson(bytes: Uint8Array): DecodedJson {
  let text: string
  let value: unknown
  try {
    text = UTF8.decode(bytes)
    value = JSON.parse(text)
  } catch {
    return { ok: false }
  }
  // The scans are cheap and nearly always negative, so ordinary payloads skip the walk.
  if (text.includes(PROTO_KEY) || text.includes(ESCAPE)) dropProtoKeys(value)
  return { ok: true, value }
}

/** Iterative, so that deeply nested input cannot overflow the stack. */
function dropProtoKeys(root: unknown): void {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null) continue
    if (Object.hasOwn(node, '__proto__')) Reflect.deleteProperty(node, '__proto__')
    for (const child of Object.values(node)) pending.push(child)
  }
}
