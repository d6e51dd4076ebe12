/**
 * One cold start, in a fresh process on node, bun or deno: import one contender, build its
 * handler, listen on 127.0.0.1, answer one delivery. Usage: <runtime> coldstart.js <app> <secret>.
 * Prints, for run.ts to read:
 *   ready <port> <bootMs> <importMs> <readyMs>   once listening (ms since the process started)
 *   rss <bytes>                                  once the first delivery is answered
 * `performance.now()` counts from the process's start on all three runtimes.
 */
import { type Built, COLD_APPS, type FetchHandler } from './apps.js'

declare const Bun: { serve(options: { hostname: string; port: number; fetch: FetchHandler }): { port: number } }
declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    fetch: FetchHandler,
  ): void
  memoryUsage(): { rss: number }
  args: string[]
}

const [id = '', secret = ''] = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args
const booted = performance.now()
const app = COLD_APPS[id]
if (!app) throw new Error(`unknown cold-start app "${id}"`)

const rss = (): number => (typeof Deno === 'undefined' ? process.memoryUsage().rss : Deno.memoryUsage().rss)
const answered = (): void => {
  // After the reply is on its way: the parent stops this process once it has read this line.
  setTimeout(() => console.log(`rss ${rss()}`), 0)
}

const build = await app()
const imported = performance.now()
const built: Built = build(secret)

async function listen(): Promise<number> {
  if (built.kind === 'node') {
    const { createServer } = await import('node:http')
    const { listener } = built
    const server = createServer((req, res) => {
      res.once('finish', answered)
      listener(req, res)
    })
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    )
  }
  const fetch: FetchHandler = async (request) => {
    const response = await built.fetch(request)
    answered()
    return response
  }
  if (typeof Bun !== 'undefined') return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch }).port
  if (typeof Deno !== 'undefined') {
    return new Promise((resolve) =>
      Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: (a) => resolve(a.port) }, fetch),
    )
  }
  const { serve } = await import('@hono/node-server')
  return new Promise((resolve) => serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port)))
}

const port = await listen()
const ms = (n: number): string => n.toFixed(2)
console.log(`ready ${port} ${ms(booted)} ${ms(imported - booted)} ${ms(performance.now())}`)
