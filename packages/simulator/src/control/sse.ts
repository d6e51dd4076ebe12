import type { Engine } from '../engine.js'
import type { RouteRequest, RouteResult } from '../http/router.js'
import type { LogEntry } from '../log.js'

const PING_MS = 15_000

/**
 * GET /_sim/events: every new log entry as an SSE message (`id: seq`, no `event:` field, so
 * `EventSource.onmessage` gets them all). `Last-Event-ID` (or `?since=<seq>`) replays what a page missed.
 */
export function streamEvents(request: RouteRequest, engine: Engine): RouteResult {
  const { request: req, response: res } = request.raw
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
  })
  res.write('retry: 1000\n\n')
  const send = (entry: LogEntry) => res.write(`id: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`)
  // A reconnecting EventSource sends Last-Event-ID; a page that just read /_sim/log passes ?since=.
  const lastId = Number(req.headers['last-event-id'] ?? request.query.get('since') ?? Number.NaN)
  if (Number.isInteger(lastId) && lastId >= 0)
    for (const entry of engine.ctx.log.entries({ since: lastId })) send(entry)
  const unsubscribe = engine.ctx.log.subscribe(send)
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS)
  ping.unref()
  req.once('close', () => {
    unsubscribe()
    clearInterval(ping)
  })
  return { streamed: true }
}
