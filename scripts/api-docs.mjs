// The API reference: TypeDoc over the source of every entry point that a public package's
// package.json `exports` declares, but `./internal` (not API), written to docs/api/ (build output, not
// committed; docs/releasing.md says how it is published at SITE).
// Usage: node scripts/api-docs.mjs [--check]
// With --check the site goes to a scratch directory, and any warning fails: a public export without a
// doc comment (the rule is below), a {@link} that resolves to nothing, a type the reference shows but no
// entry point exports, a relative link in a package README that points at no file. So does a README
// that does not link to its package's pages of the reference, or links to a page that does not exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Application, LogLevel, PageEvent, ReflectionKind, ReflectionType } from 'typedoc'

const root = new URL('..', import.meta.url).pathname
const check = process.argv.includes('--check')
const out = check ? join(root, 'node_modules/.cache/api-docs-check') : join(root, 'docs/api')
/** Where the reference is published; the READMEs link here. */
const SITE = 'https://ringhook.github.io/ringhook/'

// What must carry a doc comment. Everything a user can name or call: functions, classes and their
// methods, interfaces and their members, type aliases, variables, enums. Members of an object type
// written out in a type alias or a property count too (TypeDoc reports them as properties), since an
// option bag is usually one of those; derivedMembers() lists what is left to its owner's comment.
const requiredToBeDocumented = [
  'Function',
  'Class',
  'Method',
  'Accessor',
  'Interface',
  'Property',
  'TypeAlias',
  'Variable',
  'Enum',
  'EnumMember',
]

const entries = entryPoints()
const app = await Application.bootstrapWithPlugins({
  entryPoints: entries.map(({ file }) => file),
  tsconfig: join(root, 'tsconfig.build.json'),
  // `pnpm typecheck` checks types; TypeDoc only reads them.
  skipErrorChecking: true,
  // The front page lists the entry points with their module comments; each package's README hangs
  // under its root entry (`@document` in that comment), so its relative links are checked too.
  readme: 'none',
  useFirstParagraphOfCommentAsSummary: true,
  name: 'ringhook',
  out,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableGit: true,
  sourceLinkTemplate: 'https://github.com/ringhook/ringhook/blob/main/{path}#L{line}',
  validation: { notExported: true, invalidLink: true, notDocumented: true, unusedMergeModuleWith: true },
  requiredToBeDocumented,
  // Declarations in our packages; not zod's or a framework's, whose types some exports mention.
  packagesRequiringDocumentation: [...new Set(entries.map(({ packageName }) => packageName))],
  highlightLanguages: ['bash', 'diff', 'js', 'json', 'jsonc', 'md', 'sh', 'ts', 'typescript'],
  treatWarningsAsErrors: check,
  treatValidationWarningsAsErrors: check,
  logLevel: LogLevel.Info,
})

// A module is named after its import specifier (`@ringhook/core/adapter`), not its file's path.
const names = new Map(entries.map(({ file, specifier }) => [file, specifier]))
const entryPointsOf = app.getEntryPoints.bind(app)
app.getEntryPoints = () =>
  entryPointsOf()?.map((entry) => ({
    ...entry,
    displayName: names.get(entry.sourceFile.fileName) ?? entry.displayName,
  }))

// Each module's page, as the README links to it.
const pages = new Map()
app.renderer.on(PageEvent.END, (page) => {
  if (page.model.kindOf(ReflectionKind.Module)) pages.set(page.model.name, page.url)
})

const project = await app.convert()
if (!project) fail('TypeDoc could not convert the sources')
app.options.setValue('intentionallyNotDocumented', derivedMembers(project))
app.validate(project)
await app.generateDocs(project, out)
if (app.logger.hasErrors() || (check && app.logger.hasWarnings())) fail('the API reference has problems (above)')
const broken = readmeLinkProblems()
if (broken.length > 0) fail(`README links to the API reference:\n- ${broken.join('\n- ')}`)
console.log(
  check
    ? `API reference check passed: ${entries.length} entry points, every export documented, every link resolves.`
    : `API reference written to ${relative(root, out)}/index.html (${entries.length} entry points).`,
)

/**
 * The root README links to the reference, each package README to the page of every entry point of
 * its package, and every link into SITE from a README or docs/ names a page that exists.
 */
function readmeLinkProblems() {
  const problems = []
  if (!readFileSync(join(root, 'README.md'), 'utf8').includes(SITE)) problems.push(`README.md has no link to ${SITE}`)
  for (const { specifier, readme } of entries) {
    const page = `${SITE}${pages.get(specifier)}`
    if (!readFileSync(readme, 'utf8').includes(page)) problems.push(`${relative(root, readme)} has no link to ${page}`)
  }
  const documents = [
    join(root, 'README.md'),
    ...new Set(entries.map(({ readme }) => readme)),
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(root, 'docs', name)),
  ]
  const linkIntoSite = new RegExp(`${SITE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^)\\s>\`]*`, 'g')
  for (const file of documents) {
    for (const [link] of readFileSync(file, 'utf8').matchAll(linkIntoSite)) {
      const path = link.slice(SITE.length).split('#')[0] || 'index.html'
      if (!existsSync(join(out, path)))
        problems.push(`${relative(root, file)} links to ${link}, which is not generated`)
    }
  }
  return problems
}

/**
 * Every public entry point, from package.json `exports`, mapped to its source file through the root
 * tsconfig's `paths` (which the typecheck and the tests resolve through too).
 */
function entryPoints() {
  const paths = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.paths
  const found = []
  for (const name of readdirSync(join(root, 'packages'))) {
    const manifestPath = join(root, 'packages', name, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    if (manifest.private === true) continue
    for (const subpath of Object.keys(manifest.exports ?? { '.': null })) {
      // Files (`./openapi.json`, `./json-schema/*.json`), not modules: nothing to document or import by name.
      if (subpath.endsWith('.json')) continue
      // For ringhook's own packages, documented at its top as outside semver: not API, so not in the reference.
      if (subpath === './internal') continue
      const specifier = manifest.name + subpath.slice(1)
      const source = paths[specifier]?.[0]
      if (!source) fail(`${specifier} is in ${manifest.name}'s exports but has no entry in tsconfig.json "paths"`)
      found.push({
        packageName: manifest.name,
        specifier,
        file: join(root, source),
        readme: join(root, 'packages', name, 'README.md'),
      })
    }
  }
  return found
}

/**
 * The members the rule leaves to their owner's comment: those of a type TypeDoc spells out rather than
 * one written as a declaration.
 * - The fields of a value's inferred type: the keys of a zod schema's shape, of a frozen table like
 *   `ERRORS` (payload fields are the service's, specified in its interface document). The functions
 *   a constant holds (`events.gesture`) are still required: they are called by name.
 * - The fields of a function's return type.
 * - The fields of an object type that is a pattern or an argument rather than the shape declared:
 *   `Extract<E, { event: N }>`, `E extends { data: infer D } ? ...`.
 */
function derivedMembers(project) {
  const ours = new Set(app.options.getValue('packagesRequiringDocumentation'))
  const exempt = new Set()
  for (const reflection of project.getReflectionsByKind(ReflectionKind.Property | ReflectionKind.Method)) {
    if (reflection.hasComment() || !ours.has(project.getSymbolIdFromReflection(reflection)?.packageName)) continue
    if (isDerived(reflection)) exempt.add(reflection.getFriendlyFullName())
  }
  return [...exempt]
}

function isDerived(member) {
  const owners = []
  for (let r = member.parent; r; r = r.parent) owners.push(r)
  // TypeDoc asks nothing of parameters' types, so there is nothing to exempt.
  if (owners.some((r) => r.kindOf(ReflectionKind.Parameter))) return false
  for (const r of owners) {
    if (r.kindOf(ReflectionKind.SomeSignature)) return true
    if (r.kindOf(ReflectionKind.Variable)) return r !== member.parent?.parent || !isCallable(member)
    if (r.kindOf(ReflectionKind.TypeLiteral) && r.parent && !shapesOf(r.parent.type).includes(r)) return true
  }
  return false
}

function isCallable(member) {
  if (member.kindOf(ReflectionKind.Method)) return true
  return member.type instanceof ReflectionType && member.type.declaration.signatures?.length > 0
}

/** The object types a type declares as its shape: itself, its union and intersection members, and so on. */
function shapesOf(type) {
  switch (type?.type) {
    case 'reflection':
      return [type.declaration]
    case 'union':
    case 'intersection':
      return type.types.flatMap(shapesOf)
    case 'conditional':
      return [...shapesOf(type.trueType), ...shapesOf(type.falseType)]
    case 'array':
    case 'optional':
    case 'rest':
      return shapesOf(type.elementType)
    case 'typeOperator':
      return shapesOf(type.target)
    case 'reference':
      if (['Readonly', 'Partial', 'Required'].includes(type.name)) return (type.typeArguments ?? []).flatMap(shapesOf)
      return type.name === 'Record' ? shapesOf(type.typeArguments?.[1]) : []
    default:
      return []
  }
}

function fail(message) {
  console.error(`api-docs: ${message}`)
  process.exit(1)
}
