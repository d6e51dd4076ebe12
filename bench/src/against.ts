import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compile } from './bundle.js'
import type { HttpRow } from './http/row.js'
import { ratioTo } from './http/steady.js'
import type { Kit } from './micro/contenders.js'
import type { Measured } from './micro/harness.js'

/**
 * `--against=DIR`: another checkout of this repository, installed and built (`pnpm install && pnpm
 * build` there), measured beside this one in the same run: its `receiver.handle()` pair in the micro
 * rounds, and its server of each framework's plain ringhook app among the HTTP slices. The way to
 * read a change's cost as "after over before" when the machine's speed moves between runs.
 */
export const AGAINST_SUFFIX = ' @against'

/** The checkout's folder, checked to hold a built core and the bench's server script. */
export function againstDir(dir: string): string {
  const root = resolve(dir)
  for (const needed of ['packages/core/dist/index.js', 'bench/src/http/server.ts']) {
    if (!existsSync(resolve(root, needed)))
      throw new Error(`--against=${dir}: no ${needed} there (install and build it first)`)
  }
  return root
}

/** A checkout's commit, short, with ` (modified)` when its tracked files differ from it; undefined outside git. */
export function commitOf(dir: string): string | undefined {
  const git = (...args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' })
  const head = git('rev-parse', '--short', 'HEAD')
  if (head.status !== 0) return undefined
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== ''
  return `${head.stdout.trim()}${dirty ? ' (modified)' : ''}`
}

/** The other checkout's core, as the micro contenders use it (its store from `/store` or the root). */
export async function againstKit(root: string): Promise<Kit> {
  const load = (entry: string) => import(pathToFileURL(resolve(root, 'packages/core/dist', entry)).href)
  const core = await load('index.js')
  const store = existsSync(resolve(root, 'packages/core/dist/store.js')) ? await load('store.js') : core
  return { createReceiver: core.createReceiver, createMemoryStore: store.createMemoryStore, vibe: core.vibe }
}

/**
 * The other checkout's HTTP server script, compiled into its own bench/.tmp so that its imports
 * resolve to its own packages (see bundle.ts for why the servers run compiled).
 */
export async function againstServer(root: string): Promise<string> {
  const outDir = resolve(root, 'bench/.tmp/bundle-against')
  await compile({ server: resolve(root, 'bench/src/http/server.ts') }, outDir, resolve(root, 'bench/tsconfig.json'))
  return resolve(outDir, 'server.js')
}

/** Each reading of this checkout over the other's, from the same run: micro rates, HTTP req/s, p99 and CPU. */
export function againstRatios(
  micro: readonly Measured[] | undefined,
  http: readonly HttpRow[] | undefined,
): { reading: string; ratio: number }[] {
  const out: { reading: string; ratio: number }[] = []
  for (const row of micro ?? []) {
    const before = micro?.find((m) => m.name === `${row.name}${AGAINST_SUFFIX}`)
    if (before) out.push({ reading: `${row.name}: operations/s`, ratio: row.opsPerSec / before.opsPerSec })
  }
  for (const row of http ?? []) {
    const before = http?.find((r) => r.app === `${row.app}${AGAINST_SUFFIX}`)
    if (!before) continue
    out.push({ reading: `${row.app}: req/s`, ratio: ratioTo(row, before, 'rps') })
    out.push({ reading: `${row.app}: p99`, ratio: ratioTo(row, before, 'p99') })
    out.push({ reading: `${row.app}: server CPU a request`, ratio: ratioTo(row, before, 'cpu') })
  }
  return out
}
