import { documents } from '@ringhook/schemas'
import { EXIT, type Io, parseCommand, UsageError } from './io.js'

export const schemaHelp = `Usage: ringhook schema [name] [--list]

Prints one of the service's standard documents (from @ringhook/schemas) as JSON: the OpenAPI 3.1
document of the /v1 API and its webhooks (the default), the JSON Schema of a webhook payload or of the
gesture reply, or the signed test vectors of the webhook signature.

Options:
  --list                     the names, with each document's import path and what it is

Examples:
  ringhook schema > openapi.json
  ringhook schema gesture
  ringhook schema signature-vectors`

export async function schema(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, { list: { type: 'boolean' } }, schemaHelp, io)
  if (parsed === null) return EXIT.ok
  if (parsed.values.list) {
    const width = Math.max(...documents.map(({ name }) => name.length))
    for (const { name, path, title } of documents) io.out(`${name.padEnd(width)}  ${title}  (${path})`)
    return EXIT.ok
  }
  const [name = 'openapi', ...extra] = parsed.positionals
  if (extra.length > 0) throw new UsageError(`One document at a time: got "${parsed.positionals.join('", "')}".`)
  const found = documents.find((document) => document.name === name)
  if (!found) {
    const names = documents.map((document) => document.name).join(', ')
    throw new UsageError(`No document is named "${name}". The names: ${names}.`)
  }
  io.out(JSON.stringify(found.content, null, 2))
  return EXIT.ok
}
