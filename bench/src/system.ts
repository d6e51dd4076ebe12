import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'

export interface SystemInfo {
  date: string
  node: string
  cpus: number
  cpuModel: string
  os: string
  memoryGb: number
  versions: Record<string, string>
}

const require = createRequire(import.meta.url)

/** The installed version of a package, read from its package.json. */
function versionOf(name: string): string {
  try {
    const path = require.resolve(`${name}/package.json`)
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

const PACKAGES = [
  '@ringhook/core',
  '@octokit/webhooks',
  'standardwebhooks',
  'stripe',
  'express',
  'hono',
  '@hono/node-server',
  'autocannon',
]

export function systemInfo(): SystemInfo {
  const cpus = os.cpus()
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    versions: Object.fromEntries(PACKAGES.map((name) => [name, versionOf(name)])),
  }
}
