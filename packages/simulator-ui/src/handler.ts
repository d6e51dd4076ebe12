import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { contentType } from './content-types.js'
import { TOKEN_META } from './token-meta.js'
import { UI_DIR } from './ui-dir.js'

/** Where the page lives: `/ui/` always, `/` too unless `root: false`. Vite builds with this base. */
export const UI_BASE_PATH = '/ui/'

/** Where the built page is, and whether it is served at `/` too. */
export interface UiHandlerOptions {
  /** Directory of the built page. Default `UI_DIR`. */
  dir?: string
  /** Also serve the page at `/` (what `ringhook simulate` opens). Default true. */
  root?: boolean
}

/**
 * A node:http handler: answers and returns true for the page's own paths, returns false for any
 * other path without touching the response, so the caller can route it. The simulator passes its
 * per-run `token` as the third argument; the page is served with it, for its state-changing calls.
 */
export type UiHandler = (request: IncomingMessage, response: ServerResponse, context?: { token?: string }) => boolean

// Hashed file names change with their content, so browsers may keep them for good.
const IMMUTABLE = 'public, max-age=31536000, immutable'
// The page talks to its own origin only, and no other page may frame it (its buttons drive the simulator).
const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Serves the built simulator page and its assets. */
export function createUiHandler(options: UiHandlerOptions = {}): UiHandler {
  const dir = resolve(options.dir ?? UI_DIR)
  const root = options.root ?? true
  return (request, response, context) => {
    const path = pathOf(request.url)
    if (path === undefined || !isOwn(path, root)) return false
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
      response.end('Method not allowed')
      return true
    }
    serve(dir, path, { head: request.method === 'HEAD', token: context?.token }, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      response.end(error instanceof Error ? error.message : 'Internal error')
    })
    return true
  }
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return decodeURIComponent(new URL(url ?? '/', 'http://ui.invalid').pathname)
  } catch {
    return undefined
  }
}

function isOwn(path: string, root: boolean): boolean {
  if (path === '/ui' || path.startsWith(UI_BASE_PATH)) return true
  return root && (path === '/' || path === '/index.html')
}

interface Serving {
  head: boolean
  token: string | undefined
}

async function serve(dir: string, path: string, { head, token }: Serving, response: ServerResponse): Promise<void> {
  const relative = path.startsWith(UI_BASE_PATH) ? path.slice(UI_BASE_PATH.length) : ''
  const file = resolve(join(dir, relative))
  if (file !== dir && !file.startsWith(dir + sep)) return send(response, 404, 'Not found')
  if (relative !== '' && relative !== 'index.html' && (await isFile(file))) {
    const cache = relative.startsWith('assets/') ? IMMUTABLE : 'no-cache'
    return sendFile(response, file, { 'content-type': contentType(file), 'cache-control': cache }, head)
  }
  // A missing asset is a 404; any other path under the base is a route of the page itself.
  if (extname(relative) !== '' && relative !== 'index.html') return send(response, 404, 'Not found')
  const index = join(dir, 'index.html')
  if (!(await isFile(index))) {
    return send(response, 503, 'The simulator page is not built: run `pnpm --filter @ringhook/simulator-ui build`.')
  }
  const headers = {
    'content-type': contentType(index),
    'cache-control': 'no-store',
    'content-security-policy': CSP,
    'x-frame-options': 'DENY',
  }
  return sendBody(response, withToken(await readFile(index, 'utf8'), token), headers, head)
}

/** The page with the run's token in a `<meta>` its script reads; unchanged without one. */
function withToken(html: string, token: string | undefined): Buffer {
  if (token === undefined) return Buffer.from(html)
  const meta = `<meta name="${TOKEN_META}" content="${escapeAttribute(token)}" />`
  return Buffer.from(html.replace('</head>', `${meta}</head>`))
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

async function sendFile(response: ServerResponse, file: string, headers: Record<string, string>, head: boolean) {
  sendBody(response, await readFile(file), headers, head)
}

function sendBody(response: ServerResponse, body: Buffer, headers: Record<string, string>, head: boolean) {
  response.writeHead(200, {
    ...headers,
    'content-length': String(body.length),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  })
  response.end(head ? undefined : body)
}

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
  response.end(text)
}
