// Writes the published documents (`pnpm --filter @ringhook/schemas generate`), from core's sources:
// the package's tests regenerate them the same way and fail when a checked-in file differs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { documents, fileText } from './documents.js'

const root = dirname(dirname(new URL(import.meta.url).pathname))
// A schema that is no longer generated must not stay behind.
rmSync(join(root, 'json-schema'), { recursive: true, force: true })
for (const [path, content] of documents()) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), fileText(content))
  console.log(`wrote ${path}`)
}
