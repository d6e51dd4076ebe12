import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/**
 * Fails loudly when a package's dist/ is missing or older than its sources: these suites run
 * the built output, which `pnpm test` builds first (scripts/ensure-built.mjs) and vitest alone does not.
 */
export function assertBuilt(...names: string[]): void {
  for (const name of names) {
    const pkg = join(ROOT, 'packages', name)
    // The root entry's output; @ringhook/cli has none, only its CLI (and subpaths).
    const built = join(pkg, 'dist', existsSync(join(pkg, 'src', 'cli', 'main.ts')) ? 'cli.js' : 'index.js')
    if (!existsSync(built) || newest(join(pkg, 'src')) > statSync(built).mtimeMs) {
      throw new Error(
        `packages/${name}/dist is missing or older than its sources: run \`pnpm build\` (\`pnpm test\` does).`,
      )
    }
  }
}
