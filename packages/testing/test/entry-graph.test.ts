// The package's seams, checked on its built output: the root entry (test helpers) loads nothing
// of the simulator, the CLI or the page package (@ringhook/simulator, @ringhook/cli, @ringhook/simulator-ui). Every module
// a real `import` / `require` of an entry loads is recorded, and the sources each built file was
// made of are read from its source map.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../../../test/runtimes/built.js'

const PACKAGE = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(PACKAGE, 'dist')
const run = promisify(execFile)

let scratch: string
beforeAll(() => {
  assertBuilt('testing')
  scratch = mkdtempSync(join(tmpdir(), 'ringhook-entry-graph-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// Records the URL of every module the ES module loader loads, from the loader's own thread.
const RECORD_HOOK = `
import { appendFileSync } from 'node:fs'
let log
export function initialize(data) { log = data.log }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n')
  return next(url, context)
}
`

/** Absolute paths of the files an `import` of `entry` loads, and the bare modules (`node:…`). */
async function importGraph(entry: string): Promise<string[]> {
  const log = join(scratch, `import-${Math.random().toString(36).slice(2)}.log`)
  const hook = `data:text/javascript,${encodeURIComponent(RECORD_HOOK)}`
  const script = `
    import { register } from 'node:module'
    register(${JSON.stringify(hook)}, { data: { log: ${JSON.stringify(log)} } })
    await import(${JSON.stringify(pathToFileURL(entry).href)})
  `
  await run(process.execPath, ['--input-type=module', '--eval', script], { cwd: PACKAGE })
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:') || url.startsWith('node:'))
    .map((url) => (url.startsWith('file:') ? fileURLToPath(url) : url))
}

/** Absolute paths of the files a `require` of `entry` loads. */
async function requireGraph(entry: string): Promise<string[]> {
  const script = `require(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(require.cache)))`
  const { stdout } = await run(process.execPath, ['--eval', script], { cwd: PACKAGE })
  return JSON.parse(stdout) as string[]
}

/** The package's sources (`src/...`) the loaded files of this package were built from. */
function sourcesOf(files: string[]): string[] {
  const own = files.filter((file) => file.startsWith(DIST) && /\.c?js$/.test(file))
  return own.flatMap((file) => {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }
    return map.sources.map((source) => relative(PACKAGE, join(DIST, source)))
  })
}

describe.each([
  { how: 'import', load: importGraph, file: 'index.js' },
  { how: 'require', load: requireGraph, file: 'index.cjs' },
])('$how of the root entry', ({ load, file }) => {
  it('loads the test helpers and nothing of the simulator, the CLI or the page', async () => {
    const loaded = await load(join(DIST, file))
    const sources = sourcesOf(loaded)
    expect(sources).toEqual(expect.arrayContaining(['src/sign.ts', 'src/factories.ts', 'src/send.ts']))
    const others = /[\\/]packages[\\/](simulator|cli|simulator-ui)[\\/]|[\\/]@ringhook[\\/](simulator|cli)/
    expect(loaded.filter((path) => others.test(path) || path === 'node:http')).toEqual([])
  })
})
