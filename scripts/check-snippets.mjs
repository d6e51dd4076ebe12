// Typechecks the code the docs show: every `@example` in the packages' JSDoc and every ```ts block
// of the READMEs and docs/, under `strict`, against the packages' sources. Part of `pnpm typecheck`.
//
// Conventions (see CONTRIBUTING.md, "Code in the docs"):
// - A Markdown block is checked as written. When it needs names it does not show (a `server`, a
//   `receiver` from an earlier block), put them in an HTML comment right before it:
//     <!-- snippet-context
//     import type { Receiver } from '@ringhook/core'
//     declare const receiver: Receiver
//     -->
// - `<!-- snippet: skip -->` right before a block leaves it out (pseudo-code only; use sparingly).
// - A JSDoc `@example` is a fragment: it sees every export of its own entry (the package root, or the
//   `exports` subpath whose folder holds the file), of @ringhook/core and then of core's subpaths
//   (whose files share one folder), and the names declared in scripts/snippets/context.ts (a
//   `receiver`, a `secret`...), unless it declares or imports the same name itself.
//
// Usage: node scripts/check-snippets.mjs [--keep] (keeps the temporary project and prints its path)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '')
const CONTEXT = join(ROOT, 'scripts', 'snippets', 'context.ts')
// Every package with sources (@ringhook/cli has no root entry, only a bin and a subpath).
const PACKAGES = readdirSync(join(ROOT, 'packages')).filter((name) => existsSync(join(ROOT, 'packages', name, 'src')))

// Every import specifier of the workspace's packages (root entries and `exports` subpaths) and the
// source file behind it, as the root tsconfig.json maps them.
const ENTRIES = Object.entries(JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths)
  .filter(([spec]) => spec.startsWith('@ringhook/'))
  .map(([spec, [path]]) => ({ spec, file: join(ROOT, path), dir: dirname(join(ROOT, path)) }))

/** The entry a source file belongs to: the one whose folder holds it most closely. */
const entryOf = (file) =>
  ENTRIES.filter((entry) => file.startsWith(`${entry.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0]?.spec

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path)
    return [path]
  })
const exists = (path) => {
  try {
    readdirSync(path)
    return true
  } catch {
    return false
  }
}

// ---- Extraction ------------------------------------------------------------------------------

/** ```ts blocks of one Markdown file, with the context comment or skip marker before each. */
function markdownSnippets(file) {
  const lines = readFileSync(file, 'utf8').split('\n')
  const snippets = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i])
    if (!open) continue
    const indent = open[1].length
    const start = i + 1
    let end = start
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++
    const body = lines.slice(start, end).map((line) => line.slice(Math.min(indent, line.search(/\S|$/))))
    const marker = markerBefore(lines, i)
    i = end
    if (marker.skip) continue
    snippets.push({ file, line: start + 1, code: body.join('\n'), preamble: marker.context, fragment: false })
  }
  return snippets
}

/** The HTML comment just before line `fence` (blank lines between allowed), if it is one of ours. */
function markerBefore(lines, fence) {
  let j = fence - 1
  while (j >= 0 && lines[j].trim() === '') j--
  if (j < 0 || !lines[j].trim().endsWith('-->')) return { skip: false, context: '' }
  let k = j
  while (k >= 0 && !lines[k].includes('<!--')) k--
  const comment = lines
    .slice(k, j + 1)
    .join('\n')
    .replace(/^\s*<!--/, '')
    .replace(/-->\s*$/, '')
  if (/^\s*snippet:\s*skip\s*$/.test(comment)) return { skip: true, context: '' }
  const context = /^\s*snippet-context\s*\n([\s\S]*)$/.exec(comment)
  return { skip: false, context: context ? context[1] : '' }
}

/** `@example` bodies of one source file's JSDoc. */
function jsdocSnippets(file, pkg) {
  const text = readFileSync(file, 'utf8')
  const snippets = []
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = text.slice(0, comment.index).split('\n').length
    const lines = comment[0].split('\n').map((line) => line.replace(/^\s*\/?\*\*?\/?\s?/, '').replace(/\s*\*\/$/, ''))
    for (let i = 0; i < lines.length; i++) {
      const tag = /^@example\b\s?(.*)$/.exec(lines[i])
      if (!tag) continue
      const body = tag[1].trim() ? [tag[1]] : []
      let j = i + 1
      while (j < lines.length && !lines[j].startsWith('@')) body.push(lines[j++])
      const code = body.join('\n').trim()
      const line = firstLine + i + (tag[1].trim() ? 0 : 1)
      if (code) snippets.push({ file, line, code, entry: entryOf(file) ?? `@ringhook/${pkg}`, fragment: true })
      i = j - 1
    }
  }
  return snippets
}

function allSnippets() {
  const docs = [
    join(ROOT, 'README.md'),
    ...PACKAGES.map((name) => join(ROOT, 'packages', name, 'README.md')),
    ...readdirSync(join(ROOT, 'examples')).map((name) => join(ROOT, 'examples', name, 'README.md')),
    ...(exists(join(ROOT, 'docs')) ? walk(join(ROOT, 'docs')).filter((path) => path.endsWith('.md')) : []),
  ].filter((path) => {
    try {
      readFileSync(path)
      return true
    } catch {
      return false
    }
  })
  const sources = PACKAGES.flatMap((name) =>
    walk(join(ROOT, 'packages', name, 'src'))
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
      .map((path) => ({ path, pkg: name })),
  )
  return [...docs.flatMap(markdownSnippets), ...sources.flatMap(({ path, pkg }) => jsdocSnippets(path, pkg))]
}

// ---- The temporary project -------------------------------------------------------------------

// Third-party modules the snippets import (express, hono, ioredis, vitest...) are found in the
// workspace's node_modules folders, their @types beside them.
const moduleDirs = [
  ROOT,
  ...['packages', 'examples', 'test'].flatMap((d) => readdirSync(join(ROOT, d)).map((n) => join(ROOT, d, n))),
  join(ROOT, 'test'),
]
  .map((dir) => join(dir, 'node_modules'))
  .filter(exists)

const compilerOptions = {
  strict: true,
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  types: ['node'],
  typeRoots: moduleDirs.map((dir) => join(dir, '@types')),
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  resolveJsonModule: true,
  baseUrl: ROOT,
  paths: {
    ...Object.fromEntries(ENTRIES.map(({ spec, file }) => [spec, [relative(ROOT, file)]])),
    // A package's own types first... no: DefinitelyTyped's first, as a package without types
    // (express) would otherwise resolve to its untyped JavaScript.
    '*': [
      ...moduleDirs.map((dir) => `${relative(ROOT, dir)}/@types/*`),
      ...moduleDirs.map((dir) => `${relative(ROOT, dir)}/*`),
    ],
  },
}

/** Names a snippet declares or imports at its top level: auto-imports must not clash with them. */
function declaredNames(code) {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS)
  const names = new Set()
  const bind = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text)
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name)
  }
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const { name, namedBindings } = statement.importClause
      if (name) names.add(name.text)
      if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text)
      if (namedBindings && ts.isNamedImports(namedBindings))
        for (const el of namedBindings.elements) names.add(el.name.text)
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name)
    } else if (statement.name && ts.isIdentifier(statement.name)) {
      names.add(statement.name.text)
    }
  }
  return names
}

/** Export names of each package (and of the JSDoc context), read by the compiler. */
function exportNames() {
  const files = [...ENTRIES.map((entry) => entry.file), CONTEXT]
  const program = ts.createProgram(files, ts.convertCompilerOptionsFromJson(compilerOptions, ROOT).options)
  const checker = program.getTypeChecker()
  const namesOf = (file) => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file))
    return symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []
  }
  return {
    entries: Object.fromEntries(ENTRIES.map(({ spec, file }) => [spec, namesOf(file)])),
    context: namesOf(CONTEXT),
    program,
  }
}

/** The lines put before a snippet: its context comment, or a fragment's automatic imports. */
function header(snippet, exported, contextPath) {
  if (!snippet.fragment) return snippet.preamble ? `${snippet.preamble.trimEnd()}\n` : ''
  const taken = declaredNames(snippet.code)
  const lines = []
  const importFrom = (names, from) => {
    const fresh = names.filter((name) => !taken.has(name))
    for (const name of fresh) taken.add(name)
    if (fresh.length > 0) lines.push(`import { ${fresh.join(', ')} } from '${from}'`)
  }
  importFrom(exported.entries[snippet.entry] ?? [], snippet.entry)
  if (snippet.entry !== '@ringhook/core') importFrom(exported.entries['@ringhook/core'] ?? [], '@ringhook/core')
  for (const [spec, names] of Object.entries(exported.entries))
    if (spec.startsWith('@ringhook/core/') && spec !== snippet.entry) importFrom(names, spec)
  importFrom(exported.context, contextPath)
  return `${lines.join('\n')}\n`
}

// ---- Check -----------------------------------------------------------------------------------

const keep = process.argv.includes('--keep')
const snippets = allSnippets()
const exported = exportNames()
const dir = mkdtempSync(join(tmpdir(), 'ringhook-snippets-'))
mkdirSync(join(dir, 'snippets'))
writeFileSync(join(dir, 'context.ts'), readFileSync(CONTEXT, 'utf8'))
const byFile = new Map()
snippets.forEach((snippet, index) => {
  const name = join(dir, 'snippets', `${String(index).padStart(3, '0')}.ts`)
  const head = header(snippet, exported, '../context')
  // `export {}` makes each snippet a module, so their top-level names do not collide.
  writeFileSync(name, `${head}${snippet.code}\nexport {}\n`)
  byFile.set(name, { ...snippet, headLines: head.split('\n').length - 1 })
})

const options = ts.convertCompilerOptionsFromJson(compilerOptions, ROOT).options
const program = ts.createProgram([...byFile.keys()], options, undefined, exported.program)
const diagnostics = ts.getPreEmitDiagnostics(program)
const problems = []
for (const diagnostic of diagnostics) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ')
  const snippet = diagnostic.file && byFile.get(diagnostic.file.fileName)
  if (!snippet) {
    problems.push(
      `${diagnostic.file ? relative(ROOT, diagnostic.file.fileName) : '(project)'}: TS${diagnostic.code}: ${message}`,
    )
    continue
  }
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
  const where =
    line < snippet.headLines
      ? `${relative(ROOT, snippet.file)}:${snippet.line} (in its ${snippet.fragment ? 'automatic imports' : 'snippet-context'})`
      : `${relative(ROOT, snippet.file)}:${snippet.line + line - snippet.headLines}`
  problems.push(`${where}: TS${diagnostic.code}: ${message}`)
}

if (keep) console.log(`snippets project kept in ${dir}`)
else rmSync(dir, { recursive: true, force: true })
const counts = `${snippets.filter((s) => !s.fragment).length} Markdown blocks, ${snippets.filter((s) => s.fragment).length} JSDoc examples`
if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(`\n${problems.length} error(s) in the code the docs show (${counts}).`)
  process.exit(1)
}
console.log(`Code in the docs typechecks: ${counts}.`)
