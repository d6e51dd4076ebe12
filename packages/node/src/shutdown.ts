import { Server as NetServer } from 'node:net'
import type { Receiver } from '@ringhook/core'
import type { CloseOptions, CloseResult } from '@ringhook/core/adapter'

/** Node's default `server.keepAliveTimeout`, for servers that do not say theirs. */
const DEFAULT_KEEP_ALIVE_MS = 5000
/** Slack after the keep-alive timeout, for Node's timers to close the last idle connections. */
const KEEP_ALIVE_SLACK_MS = 1000

/** A node:http server, or anything closable like one (an HTTP/2 server has no connection methods). */
export interface ClosableServer {
  /** Stops accepting connections; calls back once every connection has closed. */
  close(callback?: (error?: Error) => void): unknown
  /** Node's `server.closeIdleConnections()`; absent on an HTTP/2 server. */
  closeIdleConnections?(): void
  /** Closes every connection, busy or not: the last resort once the wait is over. */
  closeAllConnections?(): void
  /** How long Node keeps an idle connection open; the client was told (`Keep-Alive: timeout=5`). */
  keepAliveTimeout?: number
}

/**
 * Stops a node:http server (plain, Express or @hono/node-server) and its receiver for a deploy.
 *
 * 1. The port closes at once: new connections are refused before the client writes anything (one the
 *    kernel had queued but not yet handed to Node at that instant is reset by the OS).
 * 2. Deliveries that still arrive on open connections get 503 `shutting_down` with
 *    `Retry-After: 1` and `Connection: close`, so the service retries them elsewhere and the
 *    connection ends after the answer; running handlers get `timeoutMs` (default 10 s) to finish.
 * 3. Idle kept-alive connections are not cut: a client may be writing a request on one at that very
 *    moment, and would see a reset after sending. They end on their keep-alive timeout, which the
 *    client knows and honours, or with their next request's 503. Whatever is still open after
 *    that (the keep-alive timeout plus a second) is closed, so the process can exit.
 *
 * When handlers are still running at `timeoutMs` (`drained: false`), every connection is closed
 * right away: the bound has passed.
 */
export async function closeGracefully(
  server: ClosableServer,
  receiver: Pick<Receiver, 'close'>,
  options: CloseOptions = {},
): Promise<CloseResult> {
  const serverClosed = new Promise<void>((resolve) => stopListening(server, resolve))
  const result = await receiver.close(options)
  if (!result.drained) server.closeAllConnections?.()
  const cut = setTimeout(() => server.closeAllConnections?.(), lingerMs(server))
  await serverClosed
  clearTimeout(cut)
  return result
}

/**
 * Closes the listening socket only. `http.Server#close()` also closes idle kept-alive connections
 * (Node 19+), which races with a request the client is sending on one of them; the net-level close
 * leaves open connections alone and calls back once the last of them has ended.
 */
function stopListening(server: ClosableServer, done: () => void): void {
  if (server instanceof NetServer) NetServer.prototype.close.call(server, () => done())
  else server.close(() => done())
}

/** How long an idle connection can stay open after its last answer, plus slack. */
function lingerMs(server: ClosableServer): number {
  const keepAlive = server.keepAliveTimeout
  const ms = typeof keepAlive === 'number' && Number.isFinite(keepAlive) && keepAlive > 0 ? keepAlive : 0
  return (ms || DEFAULT_KEEP_ALIVE_MS) + KEEP_ALIVE_SLACK_MS
}
