import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// No module of a package (or of the bench) may import itself back through others, by value or by
// type: a circle makes the order modules run in depend on who imports first, and a reader can no
// longer read one file without the rest of the circle. TypeScript and the bundler accept circles
// silently, so this test is what keeps them out.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The non-test TypeScript sources under `dir`, as absolute paths. */
function sources(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== 'test') out.push(...sources(path))
    } else if (/\.tsx?$/.test(name) && !/\.(test|test-d|d)\.tsx?$/.test(name)) out.push(path)
  }
  return out
}

// `import … from '…'`, `import type …`, `export … from '…'`, `import '…'` and `import('…')`, relative ones only:
// a package's own files are what can form a circle inside it.
const SPECIFIER = /\b(?:import|export)\b[^'"`;]*?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** The files `file` imports, resolved as TypeScript resolves `./x.js` to `./x.ts` or `./x/index.ts`. */
function importsOf(file: string, text: string, exists: (path: string) => boolean): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(SPECIFIER)) {
    const base = join(dirname(file), (match[1] ?? match[2]) as string).replace(/\.(?:m?js|jsx)$/, '')
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(exists)
    if (target) found.add(target)
  }
  return [...found]
}

/** The circles of a graph: its strongly connected components of more than one file, or of one that imports itself. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next)
    next += 1
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number))
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number))
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

function repositoryGraph(): Map<string, string[]> {
  const packages = join(root, 'packages')
  const dirs = readdirSync(packages).map((name) => join(packages, name, 'src'))
  const files = [...dirs, join(root, 'bench/src')].flatMap((dir) => (exists(dir) ? sources(dir) : []))
  const known = new Set(files)
  return new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'), (path) => known.has(path))]))
}

function exists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

describe('the import graph', () => {
  it('has no circle in any package or in the bench, counting type imports', () => {
    const graph = repositoryGraph()
    expect(graph.size).toBeGreaterThan(200) // it read the sources, not an empty folder
    const found = circles(graph).map((circle) => circle.map((file) => relative(root, file)).join(' -> '))
    expect(found).toEqual([])
  })

  it('finds a circle closed by a type import, and resolves the ways a file is named', () => {
    const files: Record<string, string> = {
      '/p/a.ts': "import { b } from './b.js'\nexport const a = b",
      '/p/b.ts': "import type { C } from './c/index.js'\nexport const b = 1",
      '/p/c/index.ts': "export type { A } from '../a'\nexport type C = number",
      '/p/d.tsx': "import('./a.js')",
    }
    const has = (path: string) => path in files
    const graph = new Map(Object.entries(files).map(([file, text]) => [file, importsOf(file, text, has)]))
    expect(graph.get('/p/d.tsx')).toEqual(['/p/a.ts'])
    expect(circles(graph)).toEqual([['/p/a.ts', '/p/b.ts', '/p/c/index.ts']])
    graph.set('/p/c/index.ts', [])
    expect(circles(graph)).toEqual([])
  })
})
