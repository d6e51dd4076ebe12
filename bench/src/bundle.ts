import { fileURLToPath } from 'node:url'
import { build } from 'tsup'

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url))
const OUT_DIR = fileURLToPath(new URL('../.tmp/bundle/', import.meta.url))

/** The compiled child-process scripts. */
export interface Children {
  server: string
  storeGrowth: string
  entryCost: string
  coldStart: string
  handle: string
}

/**
 * Compiles the child-process entries to plain JS in bench/.tmp/bundle. The children then run on
 * bare `node`, without a TypeScript loader in the process: a loader thread adds ~35 MB of RSS and
 * would blur the servers' memory figures. The cold-start child runs on bun and deno too. Dependencies stay external, so @ringhook/* are the
 * packages' own built dist, exactly what users install.
 */
export async function bundleChildren(): Promise<Children> {
  await compile(
    {
      server: 'src/http/server.ts',
      'store-growth': 'src/memory/store-growth.ts',
      'entry-cost': 'src/memory/entry-cost.ts',
      coldstart: 'src/coldstart/child.ts',
      'handle-child': 'src/micro/handle-child.ts',
    },
    OUT_DIR,
    `${BENCH_DIR}tsconfig.json`,
  )
  return {
    server: `${OUT_DIR}server.js`,
    storeGrowth: `${OUT_DIR}store-growth.js`,
    entryCost: `${OUT_DIR}entry-cost.js`,
    coldStart: `${OUT_DIR}coldstart.js`,
    handle: `${OUT_DIR}handle-child.js`,
  }
}

/** Compiles `entry` scripts into `outDir` as plain ESM, their dependencies left to resolve from there. */
export async function compile(entry: Record<string, string>, outDir: string, tsconfig: string): Promise<void> {
  await build({
    entry,
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    skipNodeModulesBundle: true,
    splitting: false,
    sourcemap: false,
    dts: false,
    clean: true,
    silent: true,
    config: false,
    tsconfig,
  })
}
