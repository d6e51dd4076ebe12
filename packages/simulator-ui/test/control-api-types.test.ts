import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The page's types of the control API are the simulator's own (one definition), taken with
// `import type` so nothing of @ringhook/testing reaches the page at run time: that package serves
// this one, and a run-time dependency back would be a cycle.
const UI = fileURLToPath(new URL('../ui', import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })

const imports = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)]

describe("the page's control API types", () => {
  it('come from @ringhook/testing/control-api, as types only', () => {
    const fromTesting = sources(UI).flatMap((file) =>
      imports(file).filter((match) => match[1]?.startsWith('@ringhook/testing')),
    )
    expect(fromTesting.length).toBeGreaterThan(0)
    for (const [statement, specifier] of fromTesting) {
      expect(specifier).toBe('@ringhook/testing/control-api')
      expect(statement).toMatch(/^import type /)
    }
  })
})
