import type { CloseOptions, CloseResult, Receiver } from '@ringhook/core'

const LINGER_MS = 1000

/** A node:http server, or anything closable like one (an HTTP/2 server has no connection methods). */
export interface ClosableServer {
  close(callback?: (error?: Error) => void): unknown
  closeIdleConnections?(): void
  closeAllConnections?(): void
}

/**
 * Stops a node:http server (plain, Express or @hono/node-server) and its receiver for a deploy:
 * no new connections; deliveries that still arrive on open connections get 503 so the service
 * retries them elsewhere; running handlers get `timeoutMs` (default 10 s) to finish.
 * Connections still open after that are closed, so the process can exit.
 */
export async function closeGracefully(
  server: ClosableServer,
  receiver: Pick<Receiver, 'close'>,
  options: CloseOptions = {},
): Promise<CloseResult> {
  const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()))
  const result = await receiver.close(options)
  // Keep-alive connections that were busy when close() began are idle now: let them go.
  server.closeIdleConnections?.()
  if (!result.drained) server.closeAllConnections?.()
  // A client may still be sending on a kept-alive connection (it gets 503): give it a moment.
  const grace = setTimeout(() => server.closeAllConnections?.(), LINGER_MS)
  await serverClosed
  clearTimeout(grace)
  return result
}
