// `ringhook simulate` with and without the optional page package (and `ringhook jobs` without
// @ringhook/bullmq), run from the built bin as an
// app's developer runs it: the page at / when @ringhook/simulator-ui is installed, and otherwise a
// simulator that works all the same and says, in its banner and at /, what to install.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../../../test/runtimes/built.js'

const PACKAGE = fileURLToPath(new URL('..', import.meta.url))

let scratch: string
beforeAll(() => {
  assertBuilt('core', 'testing', 'simulator', 'cli', 'simulator-ui')
  scratch = mkdtempSync(join(tmpdir(), 'ringhook-optional-page-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Starts `ringhook simulate --port 0` through a bin; resolves with its URL and what it printed so far. */
async function simulate(bin: string): Promise<{ url: string; banner: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'simulate', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let banner = ''
  let errors = ''
  child.stderr?.on('data', (chunk) => {
    errors += chunk
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      banner += chunk
      const found = /ringhook simulator on (http:\/\/\S+)/.exec(banner)
      if (found && banner.includes('Press Ctrl-C')) resolve(found[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`ringhook exited with ${code}: ${errors}`)))
  })
  return { url, banner, child }
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  return exited
}

/**
 * An app's project with @ringhook/cli installed and neither optional peer (@ringhook/simulator-ui,
 * @ringhook/bullmq): only the required dependencies.
 */
function projectWithoutPage(): string {
  const project = join(scratch, 'app')
  const modules = join(project, 'node_modules')
  const cli = join(modules, '@ringhook', 'cli')
  if (existsSync(cli)) return join(cli, 'bin', 'ringhook.mjs')
  mkdirSync(cli, { recursive: true })
  for (const part of ['package.json', 'bin', 'dist']) cpSync(join(PACKAGE, part), join(cli, part), { recursive: true })
  for (const name of requiredRinghookPackages())
    symlinkSync(realpathSync(join(PACKAGE, 'node_modules', name)), join(modules, name))
  return join(cli, 'bin', 'ringhook.mjs')
}

/** The CLI's required `@ringhook/*` dependencies, as its package.json declares them. */
function requiredRinghookPackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { dependencies: object }
  return Object.keys(manifest.dependencies).filter((name) => name.startsWith('@ringhook/'))
}

describe('ringhook simulate', () => {
  it('serves the page at / when @ringhook/simulator-ui is installed', async () => {
    const { url, banner, child } = await simulate(join(PACKAGE, 'bin', 'ringhook.mjs'))
    try {
      expect(banner).toContain(`Page       ${url}/ (a virtual ring and companion app per user)`)
      const page = await fetch(`${url}/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
    } finally {
      expect(await stop(child)).toBe(0)
    }
  })

  it('runs without @ringhook/simulator-ui, and says at / and in its banner what to install', async () => {
    const { url, banner, child } = await simulate(projectWithoutPage())
    try {
      expect(banner).toContain(
        'Page       none: @ringhook/simulator-ui is not installed (it is optional): npm install -D @ringhook/simulator-ui',
      )
      const page = await fetch(`${url}/`)
      expect(page.status).toBe(503)
      expect(await page.text()).toContain('npm install -D @ringhook/simulator-ui')
      expect((await fetch(`${url}/ui/assets/app.js`)).status).toBe(503)
      // Everything else works: the API with the demo key, the control API.
      const users = await fetch(`${url}/v1/apps/app_demo_control/users`, {
        headers: { authorization: 'Bearer rk_sim_demo_key' },
      })
      expect(users.status).toBe(200)
      expect((await fetch(`${url}/_sim/state`)).status).toBe(200)
    } finally {
      expect(await stop(child)).toBe(0)
    }
  })
})

describe('ringhook jobs', () => {
  it('says how to add @ringhook/bullmq when it is not installed, and exits 2', async () => {
    const child = spawn(process.execPath, [projectWithoutPage(), 'jobs', 'list'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(stderr).toContain('"ringhook jobs" needs @ringhook/bullmq')
    expect(stderr).toContain('npx -p @ringhook/cli -p @ringhook/bullmq ringhook jobs')
  })
})

describe('ringhook replay from a store', () => {
  it.each([
    ['--redis', 'redis://127.0.0.1:6379/0', '@ringhook/redis'],
    ['--postgres', 'postgres://127.0.0.1:5432/test', '@ringhook/postgres'],
  ])('says how to add the store package for %s when it is not installed, and exits 2', async (flag, url, name) => {
    const args = ['replay', flag, url, '--url', 'http://127.0.0.1:9/webhooks', '--secret', 'whsec_x']
    const child = spawn(process.execPath, [projectWithoutPage(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(stderr).toContain(`"ringhook replay ${flag}" needs ${name}`)
    expect(stderr).toContain(`npx -p @ringhook/cli -p ${name}`)
  })
})
