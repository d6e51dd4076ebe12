// The public surface of every package, as exported and as documented: each entry point of a package's
// `exports` (its source found through tsconfig.json "paths") with the names it exports, read from the
// source's syntax; and the names its README's "Exports" tables list. No type checker: an entry file is
// a list of re-exports, followed through `export * from` into the files it names.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'

export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..')

/** One entry point: its import specifier, source file and README. */
export interface Entry {
  specifier: string
  source: string
  readme: string
}

/** Every entry point of every public package. */
export function publicEntries(): Entry[] {
  const paths = tsconfigPaths()
  const entries: Entry[] = []
  for (const name of readdirSync(join(ROOT, 'packages')).sort()) {
    const dir = join(ROOT, 'packages', name)
    if (!existsSync(join(dir, 'package.json'))) continue
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string
      private?: boolean
      exports?: Record<string, unknown>
    }
    if (manifest.private) continue
    for (const subpath of Object.keys(manifest.exports ?? { '.': null })) {
      // Files (`./openapi.json`, `./json-schema/*.json`), not modules: nothing to document or import by name.
      if (subpath.endsWith('.json')) continue
      // For ringhook's own packages (`@ringhook/core/internal`): not API, so no README table.
      if (subpath === './internal') continue
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`
      const source = paths[specifier]
      if (!source) throw new Error(`${specifier} has no entry in tsconfig.json "paths"`)
      entries.push({ specifier, source: join(ROOT, source), readme: join(dir, 'README.md') })
    }
  }
  return entries
}

function tsconfigPaths(): Record<string, string> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as {
    compilerOptions: { paths: Record<string, string[]> }
  }
  return Object.fromEntries(Object.entries(config.compilerOptions.paths).map(([key, [path]]) => [key, path ?? '']))
}

/** The names a module exports, values and types alike, following `export *` through relative files. */
export function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>()
  if (seen.has(file)) return names
  seen.add(file)
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) names.add(element.name.text)
      else if (clause)
        names.add(clause.name.text) // export * as name
      else if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const target = resolveRelative(file, statement.moduleSpecifier.text)
        for (const name of exportedNames(target, seen)) names.add(name)
      }
      continue
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false
    if (!exported) continue
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text)
    } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node)) {
      names.add((statement.name as ts.Identifier).text)
    }
  }
  return names
}

function resolveRelative(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) throw new Error(`${from}: export * from a package (${specifier}) is not followed`)
  const file = resolve(dirname(from), specifier.replace(/\.js$/, '.ts'))
  if (!existsSync(file)) throw new Error(`${from}: cannot find ${specifier}`)
  return file
}

/**
 * The names a README documents for one entry point: the first cell of each row of the table under the
 * heading "### `<specifier>`" in its "## Exports" section (a cell may list several, each in backticks).
 */
export function documentedNames(readme: string, specifier: string): Set<string> | undefined {
  const text = readFileSync(readme, 'utf8')
  const section = /^## Exports\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1]
  if (!section) return undefined
  const heading = `### \`${specifier}\``
  const start = section.split('\n').findIndex((line) => line.trim() === heading)
  if (start < 0) return undefined
  const names = new Set<string>()
  for (const line of section.split('\n').slice(start + 1)) {
    if (line.startsWith('### ')) break
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue
    const cell = line.split('|')[1] ?? ''
    for (const [, name] of cell.matchAll(/`([A-Za-z_$][\w$]*)`/g)) names.add(name as string)
  }
  return names
}
