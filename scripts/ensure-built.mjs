// Builds the packages when their dist/ is missing or older than their sources, so `pnpm test`
// and `pnpm demo` work straight after `pnpm install` without a separate build step.
import { execSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

const stale = readdirSync(join(root, 'packages')).filter((name) => {
  const pkg = join(root, 'packages', name)
  // The root entry's output; @ringhook/cli has none, only its CLI (and subpaths).
  const built = join(pkg, 'dist', existsSync(join(pkg, 'src', 'cli', 'main.ts')) ? 'cli.js' : 'index.js')
  if (!existsSync(join(pkg, 'src'))) return false
  // Sources are src/, ui/ for a package that also builds a web page, and json-schema/ for the one whose
  // entry bundles its generated documents (the generator rewrites that folder on every run).
  const sources = ['src', 'ui', 'json-schema'].map((dir) => join(pkg, dir)).filter((dir) => existsSync(dir))
  return !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs
})

if (stale.length > 0) {
  console.log(`[ringhook] building packages (${stale.join(', ')} changed)`)
  execSync('pnpm run build', { cwd: root, stdio: 'inherit' })
}
