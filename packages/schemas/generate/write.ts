// Writes the published documents (`pnpm --filter @ringhook/schemas generate`), from core's sources:
// the package's tests regenerate them the same way and fail when a checked-in file differs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { documents, fileText } from './documents.js'
import { ENTRY_MODULE, entryModule } from './entry-module.js'

const root = dirname(dirname(new URL(import.meta.url).pathname))
// A schema that is no longer generated must not stay behind.
rmSync(join(root, 'json-schema'), { recursive: true, force: true })
const files = documents()
for (const [path, content] of files) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), fileText(content))
  console.log(`wrote ${path}`)
}
writeFileSync(join(root, ENTRY_MODULE), entryModule(files.keys()))
console.log(`wrote ${ENTRY_MODULE}`)
