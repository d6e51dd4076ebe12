// The packages' declaration bundles (dist/*.d.ts and *.d.cts), from one TypeScript program for all of
// them. tsup's `dts: true` compiled each package in a program of its own, type libraries and all: about
// 6.5 s of CPU per package against 1.4 s for its JavaScript, most of a clean build. Here tsc emits every
// package's declarations once (tsconfig.build.json), and each package's are bundled with the same
// rollup-plugin-dts tsup uses, configured as tsup configures it: the files come out byte for byte as
// tsup wrote them.
//
// Usage: node scripts/declarations.mjs
// - in the workspace root (`pnpm build` does it first): emits the declarations;
// - in a package (its `build` script, after tsup): bundles that package's, emitting first if needed.
// It emits only when a source or tsconfig is newer than the last emit.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { rollup } from 'rollup'
import { dts } from 'rollup-plugin-dts'
import ts from 'typescript'

const root = dirname(dirname(new URL(import.meta.url).pathname))
// Not under node_modules: the bundler takes any file there for a library's, and leaves it unbundled.
const out = join(root, '.cache/declarations')
const stamp = join(out, '.complete')

emitDeclarations()
if (process.cwd() !== root) await bundle(process.cwd())

function emitDeclarations() {
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput()) return
  const tsc = join(root, 'node_modules/typescript/bin/tsc')
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'pipe' })
  } catch (error) {
    // A type error fails the build, as it did tsup's declaration build.
    console.error(`${error.stdout ?? ''}${error.stderr ?? ''}`)
    process.exit(1)
  }
  mkdirSync(out, { recursive: true })
  writeFileSync(stamp, '')
}

function newestInput() {
  const configs = ['tsconfig.json', 'tsconfig.base.json', 'tsconfig.build.json'].map((name) => join(root, name))
  const sources = readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name, 'src'))
    .filter((dir) => existsSync(dir))
  return Math.max(...configs.map((file) => statSync(file).mtimeMs), ...sources.map(newest))
}

function newest(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, statSync(dir).mtimeMs)
}

/** What tsup's `dts` did for one package: one rollup build, written once per module format. */
async function bundle(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
  const build = await rollup({
    input: entries(dir, manifest),
    onwarn(warning, handler) {
      if (['UNRESOLVED_IMPORT', 'CIRCULAR_DEPENDENCY', 'EMPTY_BUNDLE'].includes(warning.code)) return
      handler(warning)
    },
    // The options tsup 8.5 gives the plugin; they only resolve imports here.
    plugins: [
      dts({
        compilerOptions: {
          baseUrl: '.',
          declaration: true,
          noEmit: false,
          emitDeclarationOnly: true,
          noEmitOnError: true,
          checkJs: false,
          declarationMap: false,
          skipLibCheck: true,
          preserveSymlinks: false,
          target: ts.ScriptTarget.ESNext,
        },
      }),
    ],
    external: deps.map((dep) => new RegExp(`^${dep}($|\\/|\\\\)`)),
  })
  for (const extension of ['.d.ts', '.d.cts']) {
    await build.write({
      dir: join(dir, 'dist'),
      format: 'esm',
      exports: 'named',
      entryFileNames: `[name]${extension}`,
      // A shared chunk is named after its first module, here `x.d.ts` where tsup had `x.ts`.
      chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash]${extension}`,
    })
  }
  await build.close()
}

/**
 * The package's entry points, from package.json `exports`: each output name (`adapter`, from
 * `./dist/adapter.d.ts`) with its emitted declaration, found through the root tsconfig's `paths`.
 */
function entries(dir, manifest) {
  const paths = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.paths
  const found = {}
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    // Files shipped as they are (`./openapi.json`), not modules with declarations.
    if (subpath.endsWith('.json')) continue
    const specifier = manifest.name + subpath.slice(1)
    const source = paths[specifier]?.[0]
    const types = target.import?.types
    if (!source || !types?.endsWith('.d.ts') || target.require?.types !== types.replace(/\.d\.ts$/, '.d.cts')) {
      throw new Error(`declarations: cannot map ${specifier} (exports and tsconfig.json "paths" disagree)`)
    }
    found[basename(types, '.d.ts')] = join(out, source.replace(/^packages\//, '').replace(/\.ts$/, '.d.ts'))
  }
  if (Object.keys(found).length === 0) throw new Error(`declarations: ${dir} exports nothing`)
  return found
}
