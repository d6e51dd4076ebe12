import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface SystemInfo {
  date: string
  node: string
  cpus: number
  cpuModel: string
  os: string
  memoryGb: number
  /** 1, 5 and 15-minute load averages when the run started (the machine is shared). */
  loadAverage: number[]
  versions: Record<string, string>
}

/**
 * The installed version of a package: the package.json above its entry point (many packages
 * do not export `./package.json`, so it cannot be resolved directly).
 */
function versionOf(name: string): string {
  try {
    // zod is a dependency of @ringhook/core, not of the bench: resolved from core.
    const from = name === 'zod' ? createRequire(fileURLToPath(import.meta.resolve('@ringhook/core'))) : undefined
    let dir = dirname(from ? from.resolve(name) : fileURLToPath(import.meta.resolve(name)))
    for (;;) {
      const file = join(dir, 'package.json')
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
        if (pkg.name === name) return pkg.version ?? 'unknown'
      }
      if (dirname(dir) === dir) return 'unknown'
      dir = dirname(dir)
    }
  } catch {
    return 'unknown'
  }
}

const PACKAGES = [
  '@ringhook/core',
  '@octokit/webhooks',
  'zod',
  'standardwebhooks',
  'stripe',
  'express',
  'hono',
  '@hono/node-server',
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
    loadAverage: os.loadavg(),
    versions: Object.fromEntries(PACKAGES.map((name) => [name, versionOf(name)])),
  }
}
