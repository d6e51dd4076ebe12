// The checked-in documents are what the generator makes of core's zod schemas today: a change to a
// schema (or to the generator) without `pnpm --filter @ringhook/schemas generate` fails here.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documents, fileText } from '../generate/documents.js'
import { ENTRY_MODULE, entryModule } from '../generate/entry-module.js'
import { documents as published } from '../src/index.js'

const root = join(import.meta.dirname, '..')
const generated = documents()

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

describe('the checked-in documents', () => {
  it.each([...generated.keys()])('%s is what the generator makes', (path) => {
    const onDisk = readFileSync(join(root, path), 'utf8')
    // One assertion on the text, so a difference shows as a diff; the hint says how to fix it.
    expect(onDisk, `${path} is stale: run pnpm --filter @ringhook/schemas generate`).toBe(
      fileText(generated.get(path) ?? null),
    )
  })

  it('holds no file the generator no longer makes', () => {
    const onDisk = [...filesUnder('json-schema'), ...filesUnder('vectors'), 'openapi.json'].map((file) =>
      relative(root, join(root, file)),
    )
    expect(onDisk.sort()).toEqual([...generated.keys()].sort())
  })

  it(`${ENTRY_MODULE}, the entry's imports of them, is what the generator makes`, () => {
    expect(
      readFileSync(join(root, ENTRY_MODULE), 'utf8'),
      `${ENTRY_MODULE} is stale: run pnpm --filter @ringhook/schemas generate`,
    ).toBe(entryModule(generated.keys()))
  })

  it('are every one reachable from the package entry, under its file path', () => {
    expect(published.map(({ path }) => path.replace('@ringhook/schemas/', '')).sort()).toEqual(
      [...generated.keys()].sort(),
    )
    for (const { path, content } of published) {
      expect(content).toEqual(generated.get(path.replace('@ringhook/schemas/', '')))
    }
  })
})
