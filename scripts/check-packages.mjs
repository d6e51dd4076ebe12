// Checks the packages as they would be published: packs every public package, lints each tarball
// with publint and @arethetypeswrong/cli, checks what a registry page needs (licence, links, the files
// a README points to), then installs the tarballs into a scratch project that compiles an ESM and a
// CommonJS app under `strict` and runs both. Usage: node scripts/check-packages.mjs (after pnpm build).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const work = mkdtempSync(join(tmpdir(), 'ringhook-pack-'))
const tarballs = join(work, 'tarballs')
mkdirSync(tarballs)
const problems = []

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
const bin = (name) => join(root, 'node_modules', '.bin', name)

const packages = readdirSync(join(root, 'packages'))
  .map((name) => ({ dir: join(root, 'packages', name) }))
  .filter(({ dir }) => existsSync(join(dir, 'package.json')))
  .map((pkg) => ({ ...pkg, manifest: JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true)

for (const { dir, manifest } of packages) {
  const name = manifest.name
  const before = new Set(readdirSync(tarballs))
  run('pnpm', ['pack', '--pack-destination', tarballs], dir)
  const file = readdirSync(tarballs).find((f) => !before.has(f))
  const tarball = join(tarballs, file)
  const listing = run('tar', ['-tzf', tarball]).split('\n').filter(Boolean)
  const shipped = new Set(listing.map((path) => path.replace(/^package\//, '')))

  for (const field of ['license', 'repository', 'homepage', 'bugs', 'description']) {
    if (!manifest[field]) problems.push(`${name}: package.json has no "${field}"`)
  }
  if (!shipped.has('LICENSE')) problems.push(`${name}: no LICENSE in the tarball`)
  if (!shipped.has('README.md')) problems.push(`${name}: no README.md in the tarball`)
  if (shipped.has('README.md')) checkReadme(name, readFileSync(join(dir, 'README.md'), 'utf8'), shipped)

  lint(name, 'publint', [bin('publint'), 'run', tarball, '--strict'])
  // node16 resolution of a CommonJS consumer of an ESM-first package is what attw's profile checks.
  lint(name, 'attw', [bin('attw'), tarball, '--profile', 'node16', '--format', 'ascii'])
}

/** Links on a registry page resolve against the registry, so they must be absolute or ship in the tarball. */
function checkReadme(name, text, shipped) {
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(target)) continue
    const path = target.replace(/^\.\//, '').split('#')[0]
    if (!shipped.has(path)) problems.push(`${name}: README links to "${target}", which is not in the tarball`)
  }
}

function lint(name, tool, [command, ...args]) {
  try {
    run(command, args, root)
  } catch (error) {
    problems.push(`${name}: ${tool} found problems:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
}

scratchProject()

if (problems.length > 0) {
  console.error(`Package check failed (${problems.length}):\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
rmSync(work, { recursive: true, force: true })
console.log(`Package check passed: ${packages.length} tarballs, publint and attw clean, scratch app ran (ESM and CJS).`)

/** A stranger's project: the tarballs from npm's point of view, TypeScript strict, both module systems. */
function scratchProject() {
  const app = join(work, 'app')
  mkdirSync(app)
  const fixtures = join(root, 'scripts', 'pack-check')
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }))
  for (const file of readdirSync(fixtures)) writeFileSync(join(app, file), readFileSync(join(fixtures, file)))
  const all = readdirSync(tarballs).map((f) => join(tarballs, f))
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...all, 'typescript@5.9.3', '@types/node@20'],
    app,
  )
  try {
    run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app)
    for (const entry of ['esm.mjs', 'cjs.cjs']) {
      const out = run('node', [join(app, 'out', entry)], app)
      if (!out.includes('scratch app: ok')) problems.push(`scratch ${entry} printed: ${out}`)
    }
  } catch (error) {
    problems.push(`scratch project failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
}
