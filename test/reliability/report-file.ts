// docs/reliability.md has generated sections between `<!-- name:start -->` and `<!-- name:end -->`;
// the scripts that measure something rewrite their section and leave the prose around it alone.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const REPORT_PATH = fileURLToPath(new URL('../../docs/reliability.md', import.meta.url))

/** Replaces the generated section `name` of docs/reliability.md with `markdown`. */
export function updateSection(name: string, markdown: string): void {
  const text = readFileSync(REPORT_PATH, 'utf8')
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/reliability.md has no ${start} … ${end} section`)
  writeFileSync(REPORT_PATH, `${text.slice(0, from + start.length)}\n${markdown.trim()}\n${text.slice(to)}`)
  // Biome formats Markdown too (tables padded): keep the file as `pnpm lint` wants it.
  spawnSync('pnpm', ['exec', 'biome', 'format', '--write', REPORT_PATH], { cwd: ROOT, stdio: 'ignore' })
}
