// Every package declares the workspace packages it imports, and they form no cycle. Read from the
// sources' syntax: an import that runs (a value, or `import()`) needs a dependency or a peer; a
// type-only import, or one in the page that Vite bundles (simulator-ui's ui/), may be a dev dependency.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT } from './surface.js'

interface Manifest {
  name: string
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

const packages = readdirSync(join(ROOT, 'packages'))
  .map((dir) => join(ROOT, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))

const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) return files(path)
        return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
      })
    : []

/** The workspace packages a file imports: name, and whether only its types are taken. */
function imports(file: string): { name: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: { name: string; typeOnly: boolean }[] = []
  const add = (specifier: string, typeOnly: boolean) => {
    const name = /^@ringhook\/[a-z0-9-]+/.exec(specifier)?.[0]
    if (name) found.push({ name, typeOnly })
  }
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined
      const typeOnly = ts.isImportDeclaration(node) ? Boolean(clause?.isTypeOnly) : node.isTypeOnly
      add((node.moduleSpecifier as ts.StringLiteral).text, typeOnly)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add((node.argument.literal as ts.StringLiteral).text, true)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('dependencies between the packages', () => {
  it.each(packages.map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest })))(
    '$name declares every workspace package it imports',
    ({ dir, manifest }) => {
      const run = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
      const dev = new Set(Object.keys(manifest.devDependencies ?? {}))
      const undeclared: string[] = []
      for (const file of files(join(dir, 'src'))) {
        for (const { name, typeOnly } of imports(file)) {
          if (name === manifest.name || run.has(name) || (typeOnly && dev.has(name))) continue
          undeclared.push(`${file.slice(ROOT.length + 1)}: ${name}${typeOnly ? ' (types)' : ''}`)
        }
      }
      // A page bundled for the browser: nothing of it is imported at run time from node_modules.
      for (const file of files(join(dir, 'ui'))) {
        for (const { name } of imports(file)) {
          if (name !== manifest.name && !run.has(name) && !dev.has(name))
            undeclared.push(`${file.slice(ROOT.length + 1)}: ${name}`)
        }
      }
      expect(undeclared).toEqual([])
    },
  )

  it('form no cycle, dev dependencies and peers included (as pnpm orders its builds)', () => {
    const names = new Set(packages.map(({ manifest }) => manifest.name))
    const edges = new Map(
      packages.map(({ manifest }) => [
        manifest.name,
        Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }).filter(
          (name) => names.has(name),
        ),
      ]),
    )
    const cycles: string[] = []
    const walk = (name: string, path: string[]) => {
      if (path.includes(name)) return void cycles.push([...path.slice(path.indexOf(name)), name].join(' → '))
      for (const next of edges.get(name) ?? []) walk(next, [...path, name])
    }
    for (const name of names) walk(name, [])
    expect(cycles).toEqual([])
  })
})
