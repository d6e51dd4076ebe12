import type { Middleware } from 'koa'

// @koa/bodyparser and koa-body declare `rawBody: string` on node:http's IncomingMessage for the
// whole TypeScript program, which clashes with the Express and node tests (one tsconfig checks
// every package). So they are loaded by a specifier TypeScript does not follow, and typed here.
const load = (name: string): Promise<Record<string, unknown>> => import(name)

/** @koa/bodyparser's factory: parses JSON and forms, keeps the text in `ctx.request.rawBody`. */
export const bodyParser = (await load('@koa/bodyparser')).bodyParser as () => Middleware

/** koa-body's factory: keeps the raw text only with `includeUnparsed: true`. */
export const koaBody = (await load('koa-body')).koaBody as (options?: { includeUnparsed?: boolean }) => Middleware
