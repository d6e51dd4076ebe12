// Helpers shared by the reliability suites: a logger that records, a raw TCP client for requests
// no HTTP library will send (duplicated headers, trickling or endless bodies, a hang-up mid-body),
// and a watch on the process for errors nobody caught.
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import type { Logger } from '@ringhook/core'

export interface LogLine {
  level: string
  fields: Record<string, unknown>
  message: string | undefined
}

/** A pino-shaped logger that keeps every line, children included, at every level. */
export function recordingLogger(
  lines: LogLine[] = [],
  bindings: Record<string, unknown> = {},
): Logger & {
  lines: LogLine[]
} {
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message?: string): void => {
      lines.push({ level, fields: { ...bindings, ...fields }, message })
    }
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
  }
}

/** Records `uncaughtException` and `unhandledRejection` while a suite runs: "the process survives". */
export function watchProcess() {
  const escaped: unknown[] = []
  const record = (error: unknown) => void escaped.push(error)
  return {
    escaped,
    start() {
      process.on('uncaughtException', record)
      process.on('unhandledRejection', record)
    },
    stop() {
      process.off('uncaughtException', record)
      process.off('unhandledRejection', record)
    },
  }
}

/** A URL's port, for raw connections to the server behind it. */
export const portOf = (url: string): number => Number(new URL(url).port)

/** An open TCP connection to 127.0.0.1 that collects what the server sends and notices when it closes. */
export async function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  socket.setMaxListeners(0)
  let received = ''
  let closed = false
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
  })
  socket.on('close', () => {
    closed = true
  })
  // EPIPE / ECONNRESET once the server hangs up are expected here, not failures of the test.
  socket.on('error', () => {})
  await once(socket, 'connect')
  return {
    socket,
    received: () => received,
    closed: () => closed,
    /** The status code of the first response, once its status line has arrived. */
    status: async (timeoutMs = 5000): Promise<number | undefined> => {
      const until = Date.now() + timeoutMs
      while (!/^HTTP\/1\.1 \d{3}/.test(received) && !closed && Date.now() < until) await sleep(5)
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received)
      return match ? Number(match[1]) : undefined
    },
    /** Resolves once the server has closed the connection, or after `timeoutMs`. */
    waitClosed: async (timeoutMs = 5000): Promise<boolean> => {
      const until = Date.now() + timeoutMs
      while (!closed && Date.now() < until) await sleep(5)
      return closed
    },
    /** Writes, resolving when the data is handed to the kernel or the connection is gone. */
    write: (data: string | Uint8Array): Promise<void> =>
      new Promise((resolve) => {
        if (closed || socket.destroyed || !socket.write(data)) {
          if (closed || socket.destroyed) return resolve()
          const done = () => {
            socket.off('drain', done)
            socket.off('close', done)
            resolve()
          }
          socket.once('drain', done)
          socket.once('close', done)
          return
        }
        resolve()
      }),
  }
}

/** The head of an HTTP/1.1 POST to /webhooks, header lines given as written (any case, repeated). */
export function requestHead(headerLines: readonly string[]): string {
  return ['POST /webhooks HTTP/1.1', 'Host: 127.0.0.1', ...headerLines, '', ''].join('\r\n')
}

/** A complete raw request with a Content-Length body. */
export function rawRequest(headerLines: readonly string[], body: string): string {
  return requestHead([...headerLines, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close']) + body
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Waits until `condition` holds, polling; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms: ${condition}`)
    await sleep(5)
  }
}
