import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The page's types of the control API are the simulator's own (one definition), taken with
// `import type` so nothing of @ringhook/simulator reaches the page at run time: the page is a
// bundled browser build, and the simulator is only its dev dependency, for these types.
const UI = fileURLToPath(new URL('../ui', import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })

const imports = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)]

describe("the page's control API types", () => {
  it('come from @ringhook/simulator/control-api, as types only', () => {
    const fromSimulator = sources(UI).flatMap((file) =>
      imports(file).filter((match) => match[1]?.startsWith('@ringhook/simulator')),
    )
    expect(fromSimulator.length).toBeGreaterThan(0)
    for (const [statement, specifier] of fromSimulator) {
      expect(specifier).toBe('@ringhook/simulator/control-api')
      expect(statement).toMatch(/^import type /)
    }
  })
})
