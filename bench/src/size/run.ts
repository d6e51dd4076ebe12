import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'

/** A Worker that receives the service's webhooks, bundled as Wrangler bundles it. */
export interface SizeApp {
  app: string
  description: string
  entry: string
}

export const SIZE_APPS: readonly SizeApp[] = [
  {
    app: 'ringhook',
    description: '`createReceiver()` + one gesture handler answering with `vibe()`, served by `receiver.fetch`',
    entry: 'ringhook.ts',
  },
  {
    app: '@octokit/webhooks',
    description: '`new Webhooks()` + one `ping` handler, served by `createWebMiddleware()`',
    entry: 'octokit.ts',
  },
  {
    app: 'hand-rolled (Web Crypto)',
    description: '`crypto.subtle.verify`, the timestamp window, JSON.parse, the same vibe reply',
    entry: 'hand.ts',
  },
]

export interface SizeRow {
  app: string
  description: string
  bytes: number
  gzipBytes: number
  /** Minified bytes each package contributes (before gzip, which does not add up per part). */
  parts: { name: string; bytes: number }[]
}

const APPS_DIR = fileURLToPath(new URL('./apps/', import.meta.url))

/** The package a bundled file belongs to; workspace packages resolve to packages/<name>/dist. */
function packageOf(path: string): string {
  const workspace = /(?:^|\/)packages\/([^/]+)\/dist\//.exec(path)
  if (workspace) return `@ringhook/${workspace[1]}`
  const at = path.lastIndexOf('node_modules/')
  if (at < 0) return 'the app itself'
  const [scope, name] = path.slice(at + 'node_modules/'.length).split('/')
  return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? 'unknown')
}

function parts(metafile: Metafile): SizeRow['parts'] {
  const output = Object.values(metafile.outputs)[0]
  const totals = new Map<string, number>()
  for (const [path, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const name = packageOf(path)
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput)
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes)
}

/**
 * Bundles one app the way Wrangler does for a Worker without Node compatibility: ESM, browser
 * platform with the `workerd` and `worker` conditions, minified, from the packages' built dist.
 */
async function measure(app: SizeApp): Promise<SizeRow> {
  const result = await build({
    entryPoints: [`${APPS_DIR}${app.entry}`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return {
    app: app.app,
    description: app.description,
    bytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    parts: parts(result.metafile),
  }
}

export async function runSize(): Promise<SizeRow[]> {
  const rows: SizeRow[] = []
  for (const app of SIZE_APPS) rows.push(await measure(app))
  return rows
}
