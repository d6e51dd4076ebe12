// Proves the Web-standard paths are portable by running the BUILT packages on other runtimes:
// receiver.fetch and a Hono app using @ringhook/hono, served by Bun.serve and Deno.serve and by
// workerd (Miniflare) as bundled Workers, each sent real signed requests from Node over HTTP.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
import { dedupKeyFor } from '@ringhook/core/store'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from './built.js'

assertBuilt('core', 'hono')

const SECRET = 'whsec_runtime_smoke'
const HERE = join(ROOT, 'test', 'runtimes')
const pkgDir = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let sequence = 0
/** A payload distinct from every other one this run sends. */
function payload(event: string): Record<string, unknown> {
  return {
    event,
    ...(event === 'gesture' ? { gesture_type: 'double_tap' } : {}),
    user_app_id: 'u-runtime',
    app_id: 'app_demo',
    timestamp: new Date(Date.now() + ++sequence).toISOString(),
    data: {},
  }
}

async function post(url: string, body: Record<string, unknown>, secret = SECRET) {
  const text = JSON.stringify(body)
  const { headers } = await signWebhook({ secret, body: text })
  const response = await fetch(url, { method: 'POST', headers, body: text })
  return {
    status: response.status,
    duplicate: response.headers.get('x-ringhook-duplicate'),
    body: await response.json(),
  }
}

interface Served {
  /** receiver.fetch served directly. */
  fetch: string
  /** A Hono app with @ringhook/hono. */
  hono: string
  child: ChildProcess
}

/** Starts a server process; resolves once it prints `listening fetch=<port> hono=<port>`. */
function start(command: string, args: string[], cwd: string): Promise<Served> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('did not start within 15 s')), 15_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill()
      reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${output}`))
    }
    child.on('error', fail)
    child.on('exit', (code) => fail(new Error(`exited with ${code}`)))
    const read = (chunk: Buffer) => {
      output += chunk
      const ports = /listening fetch=(\d+) hono=(\d+)/.exec(output)
      if (ports) {
        clearTimeout(timer)
        child.removeAllListeners('exit')
        resolve({ fetch: `http://127.0.0.1:${ports[1]}/`, hono: `http://127.0.0.1:${ports[2]}/`, child })
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })
  })
}

/**
 * The native binaries, not the npm shims, so the test can stop exactly the process it started. Core
 * verifies with their native Web Crypto: loading their node:crypto layer costs more than it saves.
 */
const runtimes = [
  { name: 'bun', engine: 'webcrypto', command: join(pkgDir('bun'), 'bin', 'bun.exe'), args: ['server.ts', SECRET] },
  {
    name: 'deno',
    engine: 'webcrypto',
    command: join(pkgDir('deno'), 'deno'),
    args: ['run', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', `--allow-read=${ROOT}`, 'server.ts', SECRET],
  },
]

/**
 * The service's retries of a delivery acknowledged at the deadline: 409 while its handler runs, then
 * the remembered acknowledgement once it has finished (the answer after the last 409, within 5 s).
 */
async function finished(url: string, delivery: Record<string, unknown>): Promise<Awaited<ReturnType<typeof post>>> {
  let retry = await post(url, delivery)
  for (const started = Date.now(); retry.status === 409 && Date.now() - started < 5_000; ) {
    await sleep(50)
    retry = await post(url, delivery)
  }
  return retry
}

/** What every runtime must do. `engine` is the HMAC engine core must pick there (node:crypto or Web Crypto). */
function smokeTests(runtime: string, engine: string, server: () => string) {
  it('answers a signed gesture with a vibe', async () => {
    const reply = await post(server(), payload('gesture'))
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      success: true,
      vibe: {
        sequence: [{ type: 'tap' }, { type: 'pulse' }],
        message: `double_tap on ${runtime} (${engine})`,
      },
    })
  })

  it('rejects a bad signature with 401', async () => {
    const reply = await post(server(), payload('gesture'), 'whsec_wrong')
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ error: { code: 'unauthorized' } })
  })

  it('replays the first reply to a duplicate', async () => {
    const gesture = payload('gesture')
    const first = await post(server(), gesture)
    const retry = await post(server(), gesture)
    expect(retry).toEqual({ ...first, duplicate: 'true' })
  })

  it('finishes a handler acknowledged at the deadline', async () => {
    const installed = payload('app.installed')
    expect((await post(server(), installed)).body).toEqual({ ok: true })
    expect(await finished(server(), installed)).toEqual({ status: 200, duplicate: 'true', body: { ok: true } })
  })
}

describe.each(runtimes)('$name', ({ name, engine, command, args }) => {
  let server: Served | undefined
  beforeAll(async () => {
    server = await start(command, args, join(HERE, name))
  })
  afterAll(() => void server?.child.kill())
  describe('receiver.fetch', () => {
    smokeTests(name, engine, () => server?.fetch ?? '')

    it('names a delivery by the key Node names it by, its data hashed on this runtime', async () => {
      // Instances on different runtimes share one store: each must digest a payload's data alike.
      const gesture = {
        ...payload('gesture'),
        event: 'gesture',
        data: { note: 'naïve 👋', items: [1, { b: 2, a: 'x' }] },
      }
      const response = await fetch(new URL('dedup-key', server?.fetch), {
        method: 'POST',
        body: JSON.stringify(gesture),
      })
      const { key } = (await response.json()) as { key: string }
      expect(key).toMatch(/^v2:\["gesture",.*"[0-9a-f]{32}"\]$/)
      expect(key).toBe(dedupKeyFor(gesture))
    })

    it('answers 500 body_already_parsed to a route that read the body first', async () => {
      const reply = await post(new URL('read-first', server?.fetch).href, payload('gesture'))
      expect(reply.status).toBe(500)
      expect(reply.body).toMatchObject({ error: { code: 'body_already_parsed' } })
    })
  })
  describe('@ringhook/hono', () => smokeTests(name, engine, () => server?.hono ?? ''))
})

/** Bundles a Worker as a user's bundler would, for a platform without Node built-ins. */
async function workerScript(entry: string): Promise<string> {
  const bundle = await build({
    entryPoints: [join(HERE, 'workerd', entry)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  })
  return bundle.outputFiles[0]?.text ?? ''
}

/** Runs a bundled Worker on workerd; resolves with its URL. */
async function worker(entry: string): Promise<{ url: string; dispose(): Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script: await workerScript(entry),
    compatibilityDate: '2025-07-01',
    bindings: { RING_WEBHOOK_SECRET: SECRET },
  })
  return { url: (await mf.ready).href, dispose: () => mf.dispose() }
}

describe('workerd (Miniflare)', () => {
  describe('receiver.fetch', () => {
    let served: { url: string; dispose(): Promise<void> } | undefined
    beforeAll(async () => {
      served = await worker('worker.ts')
    })
    afterAll(() => served?.dispose())
    smokeTests('workerd', 'webcrypto', () => served?.url ?? '')

    it('shows why waitUntil matters: without it workerd cancels the late handler', async () => {
      const url = served?.url ?? ''
      const dropped = payload('app.installed')
      const kept = payload('app.installed')
      // Started together; the one handed to waitUntil is seen to finish, so the other, as slow, would
      // have finished too had the work been kept alive: its claim would be settled.
      const answers = await Promise.all([post(new URL('without-wait-until', url).href, dropped), post(url, kept)])
      expect(answers.map((answer) => answer.body)).toEqual([{ ok: true }, { ok: true }])
      expect(await finished(url, kept)).toMatchObject({ status: 200, duplicate: 'true' })
      expect((await post(url, dropped)).status).toBe(409)
    })
  })

  describe('@ringhook/hono', () => {
    let served: { url: string; dispose(): Promise<void> } | undefined
    beforeAll(async () => {
      served = await worker('hono-worker.ts')
    })
    afterAll(() => served?.dispose())
    smokeTests('workerd', 'webcrypto', () => served?.url ?? '')
  })
})

describe('built output', () => {
  /** Every module specifier a bundle loads statically or dynamically. */
  const specifiers = (source: string) =>
    [...source.matchAll(/(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*["']([^"']+)["']/g)].map((m) => m[1])

  /** A built entry with the package's own chunks it loads: their sources, and what they load from outside. */
  function bundleOf(dir: string, entry: string): { source: string; external: Set<string> } {
    const sources: string[] = []
    const external = new Set<string>()
    const seen = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      const source = readFileSync(join(dir, file), 'utf8')
      sources.push(source)
      for (const specifier of specifiers(source)) {
        if (specifier?.startsWith('./')) visit(specifier.slice(2))
        else if (specifier) external.add(specifier)
      }
    }
    visit(entry)
    return { source: sources.join('\n'), external }
  }

  it.each(['index', 'adapter', 'api'].flatMap((entry) => [`${entry}.js`, `${entry}.cjs`]))(
    'core/dist/%s imports no module: zod/mini is bundled, no node: module',
    (file) => {
      const { source, external } = bundleOf(join(ROOT, 'packages/core/dist'), file)
      expect([...external]).toEqual([])
      // node:crypto and node:buffer are reached only through process.getBuiltinModule (the
      // `builtin` helper), where the runtime has them.
      if (file.startsWith('index.')) expect(source).toMatch(/getBuiltinModule\?\.\(id\)/)
      expect(source.replace(/builtin\(\s*["']node:(?:crypto|buffer)["']/g, '')).not.toMatch(/["']node:/)
    },
  )

  it('hono/dist imports only @ringhook/core (its root and adapter entries)', () => {
    const source = readFileSync(join(ROOT, 'packages/hono/dist/index.js'), 'utf8')
    const outside = specifiers(source).filter((specifier) => !/^@ringhook\/core(?:\/adapter)?$/.test(specifier ?? ''))
    expect(outside).toEqual([])
    expect(specifiers(source).length).toBeGreaterThan(0)
  })
})
