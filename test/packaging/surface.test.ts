// Every entry point of every public package exports exactly the names its README's "Exports" tables
// list: a new export fails here until it is documented, and a documented name that is gone fails too.
import { describe, expect, it } from 'vitest'
import { documentedNames, exportedNames, publicEntries } from './surface.js'

/** What an app writes, imported from `@ringhook/core`, fits in this many names (issue 34). */
const CORE_ROOT_BUDGET = 25

const entries = publicEntries()

describe('the documented surface', () => {
  it.each(entries)('$specifier exports what its README lists', ({ specifier, source, readme }) => {
    const documented = documentedNames(readme, specifier)
    if (!documented) throw new Error(`${readme} has no "### \`${specifier}\`" table under "## Exports"`)
    expect([...exportedNames(source)].sort()).toEqual([...documented].sort())
  })

  it(`@ringhook/core's root entry holds at most ${CORE_ROOT_BUDGET} names`, () => {
    const root = entries.find(({ specifier }) => specifier === '@ringhook/core')
    expect(root && exportedNames(root.source).size).toBeLessThanOrEqual(CORE_ROOT_BUDGET)
  })
})

describe('exportedNames', () => {
  it('follows export * into the files it names, types included', () => {
    const api = entries.find(({ specifier }) => specifier === '@ringhook/core/api')
    const names = api ? exportedNames(api.source) : new Set<string>()
    // A value and a type from a file reached only through `export *`.
    expect(names.has('gestureEventSchema')).toBe(true)
    expect(names.has('GestureEvent')).toBe(true)
  })
})
