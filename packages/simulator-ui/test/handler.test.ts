import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUiHandler, TOKEN_META, UI_DIR, type UiHandlerOptions } from '../src/index.js'

// A stand-in for dist/ui, so these tests do not need the Vite build.
let root: string
let dir: string
const servers: Server[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'simulator-ui-'))
  dir = join(root, 'ui')
  await mkdir(join(dir, 'assets'), { recursive: true })
  await writeFile(join(root, 'secret.txt'), 'outside')
  await writeFile(join(dir, 'index.html'), '<!doctype html><head><title>sim</title></head>')
  await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)')
  await writeFile(join(dir, 'assets', 'index-abc123.css'), 'body{}')
})

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  await rm(root, { recursive: true, force: true })
})

/** A server whose own routes answer 418, so a test sees whether the handler let a request through. */
async function serve(options: UiHandlerOptions = {}, token?: string): Promise<string> {
  const handle = createUiHandler({ dir, ...options })
  const server = createServer((request, response) => {
    if (handle(request, response, token === undefined ? undefined : { token })) return
    response.writeHead(418).end('simulator')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('createUiHandler', () => {
  it('serves the page at / and under /ui/, never stored, talking to and framed by nobody else', async () => {
    const base = await serve()
    for (const path of ['/', '/index.html', '/ui', '/ui/', '/ui/index.html']) {
      const response = await fetch(base + path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-store')
      const csp = response.headers.get('content-security-policy')
      expect(csp).toContain("default-src 'self'; connect-src 'self';")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(await response.text()).toBe('<!doctype html><head><title>sim</title></head>')
    }
  })

  it('serves the page with the token it is given, for the page to send', async () => {
    const base = await serve({}, 'tok_0123456789abcdef"<x>')
    const html = await (await fetch(`${base}/`)).text()
    expect(html).toBe(
      `<!doctype html><head><title>sim</title><meta name="${TOKEN_META}" content="tok_0123456789abcdef&#34;&#60;x&#62;" /></head>`,
    )
  })

  it('keeps hashed assets for good, with their content types', async () => {
    const base = await serve()
    const script = await fetch(`${base}/ui/assets/index-abc123.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(script.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await script.text()).toBe('console.log(1)')
    const style = await fetch(`${base}/ui/assets/index-abc123.css`)
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  it('falls back to index.html for routes of the page, and answers 404 for a missing file', async () => {
    const base = await serve()
    const route = await fetch(`${base}/ui/users/usr_1`)
    expect(route.status).toBe(200)
    expect(await route.text()).toContain('<title>sim</title>')
    expect((await fetch(`${base}/ui/assets/gone-123.js`)).status).toBe(404)
  })

  it('answers HEAD with the headers and no body', async () => {
    const base = await serve()
    const response = await fetch(`${base}/ui/assets/index-abc123.js`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe('14')
    expect(await response.text()).toBe('')
  })

  it('lets every other path through untouched, for the simulator to route', async () => {
    const base = await serve()
    for (const path of ['/_sim/state', '/v1/vibes/patterns', '/vibes/trigger', '/uix', '/favicon.ico']) {
      const response = await fetch(base + path)
      expect(response.status, path).toBe(418)
      expect(await response.text()).toBe('simulator')
    }
  })

  it('leaves / to the simulator with root: false', async () => {
    const base = await serve({ root: false })
    expect((await fetch(`${base}/`)).status).toBe(418)
    expect((await fetch(`${base}/ui/`)).status).toBe(200)
  })

  it('refuses methods other than GET and HEAD on its own paths', async () => {
    const base = await serve()
    const response = await fetch(`${base}/ui/`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect((await fetch(`${base}/_sim/reset`, { method: 'POST' })).status).toBe(418)
  })

  it('never reads outside its directory', async () => {
    const base = await serve()
    const escapes = [
      '/ui/%2e%2e/secret.txt',
      '/ui/..%2fsecret.txt',
      '/ui/assets/..%2f..%2fsecret.txt',
      '/ui/%2e%2e%5csecret.txt',
    ]
    for (const path of escapes) {
      const response = await fetch(base + path)
      // 404 from the handler, or 418 when URL parsing already left /ui/: never the file.
      expect([404, 418], path).toContain(response.status)
      expect(await response.text()).not.toBe('outside')
    }
  })

  it('says how to build the page when it is not built', async () => {
    const handle = createUiHandler({ dir: join(dir, 'missing') })
    const server = createServer((request, response) => void handle(request, response))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    expect(response.status).toBe(503)
    expect(await response.text()).toContain('pnpm --filter @ringhook/simulator-ui build')
  })

  it('finds the built page in the package', () => {
    expect(isAbsolute(UI_DIR)).toBe(true)
    expect(UI_DIR.replaceAll('\\', '/')).toMatch(/packages\/simulator-ui\/dist\/ui$/)
  })
})
