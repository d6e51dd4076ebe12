// Checks the packages as they would be published: packs every public package, lints each tarball
// with publint and @arethetypeswrong/cli, checks what a registry page needs (licence, links, the files
// a README points to), then installs the tarballs into a scratch project that compiles an ESM and a
// CommonJS app under `strict` and runs both, and runs `npx @ringhook/cli --help` and `doctor --help`
// there. Usage: node scripts/check-packages.mjs (after pnpm build).
import { execFileSync, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
await copiedExample('node-http')

if (problems.length > 0) {
  console.error(`Package check failed (${problems.length}):\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
rmSync(work, { recursive: true, force: true })
console.log(
  `Package check passed: ${packages.length} tarballs, publint and attw clean, scratch app ran (ESM and CJS), npx @ringhook/cli --help and doctor --help ran from the tarball, examples/node-http copied out ran with npm.`,
)

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
  // npm leaves out a tarball whose version another package's peer range refuses, and says nothing.
  for (const { manifest } of packages) {
    if (!existsSync(join(app, 'node_modules', manifest.name, 'package.json')))
      problems.push(`${manifest.name}: not installed from its tarball (a peer range that refuses its version?)`)
  }
  try {
    run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app)
    for (const entry of ['esm.mjs', 'cjs.cjs']) {
      const out = run('node', [join(app, 'out', entry)], app)
      if (!out.includes('scratch app: ok')) problems.push(`scratch ${entry} printed: ${out}`)
    }
  } catch (error) {
    problems.push(`scratch project failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
  cliFromTarball(app)
}

/**
 * The CLI as the READMEs say to run it, `npx @ringhook/cli <command>`, from the tarball installed in
 * the scratch app. `npm_config_yes=false` forbids npx to fetch anything, so a registry package cannot
 * stand in for it (the `--no` flag would do the same, but npx then takes `--help` for its own).
 */
function cliFromTarball(app) {
  const expected = [
    [['--help'], 'Usage: ringhook <command>'],
    [['doctor', '--help'], 'Usage: ringhook doctor'],
  ]
  for (const [args, text] of expected) {
    const command = `npx @ringhook/cli ${args.join(' ')}`
    try {
      const out = execFileSync('npx', ['@ringhook/cli', ...args], {
        cwd: app,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_yes: 'false' },
      })
      if (!out.includes(text)) problems.push(`${command} printed no "${text}":\n${out}`)
    } catch (error) {
      problems.push(`${command} failed (exit ${error.status}):\n${error.stdout ?? ''}${error.stderr ?? ''}`)
    }
  }
}

/**
 * An example as a user copies it out of the repository: its own folder, `npm install` (the @ringhook
 * versions it names resolve to the tarballs here, as they would on the registry), `npm start`, one
 * signed gesture answered with a vibe, then SIGTERM to npm and a clean exit.
 */
async function copiedExample(name) {
  const dir = join(work, `example-${name}`)
  cpSync(join(root, 'examples', name), dir, { recursive: true, filter: (src) => !src.includes('node_modules') })
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const byName = Object.fromEntries(
    readdirSync(tarballs).map((file) => [
      `@ringhook/${file.replace(/^ringhook-(.*)-\d+\.\d+\.\d+\.tgz$/, '$1')}`,
      file,
    ]),
  )
  for (const deps of [manifest.dependencies ?? {}, manifest.devDependencies ?? {}]) {
    for (const dep of Object.keys(deps)) {
      if (deps[dep].startsWith('workspace:'))
        problems.push(`examples/${name}: ${dep} is "${deps[dep]}", not a version a user can install`)
      if (byName[dep]) deps[dep] = `file:${join(tarballs, byName[dep])}`
    }
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2))
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir)
  const secret = 'whsec_copied_example'
  const port = 40_000 + Math.floor(Math.random() * 20_000)
  const app = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), RING_WEBHOOK_SECRET: secret },
  })
  let output = ''
  app.stdout.on('data', (chunk) => (output += chunk))
  app.stderr.on('data', (chunk) => (output += chunk))
  try {
    for (let i = 0; i < 100 && !output.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100))
    const body = JSON.stringify({
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: '3f1c2a9e-0000-4000-8000-000000000002',
      app_id: 'app_copied',
      timestamp: new Date().toISOString(),
      data: {},
    })
    const timestamp = String(Math.floor(Date.now() / 1000))
    const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
    const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': signature,
        'x-service-timestamp': timestamp,
      },
      body,
    })
    const reply = await response.json()
    if (response.status !== 200 || !reply.vibe)
      problems.push(`examples/${name} copied out: ${response.status} ${JSON.stringify(reply)}`)
    app.kill('SIGTERM')
    const [code] = await once(app, 'exit')
    if (code !== 0) problems.push(`examples/${name} copied out: exit ${code} after SIGTERM\n${output}`)
  } catch (error) {
    app.kill('SIGKILL')
    problems.push(`examples/${name} copied out failed: ${error.message}\n${output}`)
  }
}
