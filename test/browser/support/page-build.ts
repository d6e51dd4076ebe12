import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { UI_DIR } from '../../../packages/simulator-ui/src/index.js'

const PACKAGE = fileURLToPath(new URL('../../../packages/simulator-ui', import.meta.url))

const newest = (path: string): number =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0)
    : statSync(path).mtimeMs

/**
 * Makes sure dist/ui holds the page built from the current sources: `pnpm build` normally did it,
 * and after an edit of ui/ this rebuilds the page alone (Vite, about a second).
 */
export function ensurePageBuilt(): void {
  const index = join(UI_DIR, 'index.html')
  const sources = Math.max(newest(join(PACKAGE, 'ui')), statSync(join(PACKAGE, 'vite.config.ts')).mtimeMs)
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return
  execFileSync(join(PACKAGE, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: PACKAGE,
    stdio: 'inherit',
  })
}
