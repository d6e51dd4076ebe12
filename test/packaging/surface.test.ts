// Every entry point of every public package exports exactly the names its README's "Exports" tables
// list: a new export fails here until it is documented, and a documented name that is gone fails too.
import { describe, expect, it } from 'vitest'
import { documentedNames, exportedNames, publicEntries } from './surface.js'

/** What an app writes, imported from `@ringhook/core`, fits in this many names (issue 34). */
const CORE_ROOT_BUDGET = 25

/**
 * Entry points whose names are still being changed (the client's error names, the testing package's
 * split into helpers, simulator and CLI) and whose README tables come with that change. Until then
 * their export count may not grow past what it is.
 */
const NOT_YET_TABULATED: Record<string, number> = {
  '@ringhook/bullmq': 44,
  '@ringhook/testing': 27,
  '@ringhook/simulator': 95,
  '@ringhook/cli/doctor': 7,
  '@ringhook/simulator/control-api': 46,
}

const entries = publicEntries()

describe('the documented surface', () => {
  it.each(entries.filter(({ specifier }) => !(specifier in NOT_YET_TABULATED)))(
    '$specifier exports what its README lists',
    ({ specifier, source, readme }) => {
      const documented = documentedNames(readme, specifier)
      if (!documented) throw new Error(`${readme} has no "### \`${specifier}\`" table under "## Exports"`)
      expect([...exportedNames(source)].sort()).toEqual([...documented].sort())
    },
  )

  it.each(entries.filter(({ specifier }) => specifier in NOT_YET_TABULATED))(
    '$specifier exports no more names than it did',
    ({ specifier, source }) => {
      expect(exportedNames(source).size).toBeLessThanOrEqual(NOT_YET_TABULATED[specifier] as number)
    },
  )

  it(`@ringhook/core's root entry holds at most ${CORE_ROOT_BUDGET} names`, () => {
    const root = entries.find(({ specifier }) => specifier === '@ringhook/core')
    expect(root && exportedNames(root.source).size).toBeLessThanOrEqual(CORE_ROOT_BUDGET)
  })

  it('every package named in the list above still exists', () => {
    const specifiers = new Set(entries.map(({ specifier }) => specifier))
    expect(Object.keys(NOT_YET_TABULATED).filter((specifier) => !specifiers.has(specifier))).toEqual([])
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
