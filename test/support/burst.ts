// A burst of webhook deliveries over keep-alive connections, for shutdown tests. Every request
// ends one of three ways: answered (any status), refused before a byte of it was written (the
// server stopped listening), or lost: the connection failed after the request was written, so
// the sender cannot know whether it was handled. A graceful shutdown must lose none.
import { Agent, request } from 'node:http'

/** One delivery to send: the exact body and its signed headers. */
export interface BurstRequest {
  body: string
  headers: Record<string, string>
}

/** What became of the requests of a burst. */
export interface BurstTally {
  sent: number
  /** Answers by status code. */
  statuses: Record<number, number>
  /** Refused before anything was written: safe, the sender retries elsewhere. */
  refused: number
  /** Failed after being written (reset, hang-up); each with its error code. */
  lost: string[]
  /** 503 answers that lacked `Retry-After` or `Connection: close`. */
  bad503: string[]
}

export interface BurstOptions {
  port: number
  path?: string
  /** Concurrent senders, one keep-alive connection each. */
  lanes: number
  /** Requests one lane sends at most (a bound if the server never stops answering). */
  maxPerLane: number
  next: () => Promise<BurstRequest>
}

export interface Burst {
  tally: BurstTally
  /**
   * Resolves once `count` answers have arrived, and at least one on every lane: then each lane has
   * its kept-alive connection, and opens no new one until an answer closes it. A connection still
   * in the listen queue when the server stops listening is reset by the kernel after the client
   * wrote its request, whatever the server does; a shutdown test must not start there.
   */
  answered(count: number): Promise<void>
  /** Resolves when every lane has stopped: refused, or at its bound. */
  done: Promise<BurstTally>
  /** Milliseconds since the burst began, to set beside a lost request's. */
  elapsedMs(): number
}

type Outcome = 'answered' | 'closing' | 'refused' | 'lost'

/** Starts `lanes` senders that post back to back, each on its own kept-alive connection. */
export function startBurst(options: BurstOptions): Burst {
  const agent = new Agent({ keepAlive: true, maxSockets: options.lanes })
  const tally: BurstTally = { sent: 0, statuses: {}, refused: 0, lost: [], bad503: [] }
  let answers = 0
  const lanesAnswered = new Set<number>()
  const waiters: { count: number; wake: () => void }[] = []
  const ready = (count: number) => answers >= count && lanesAnswered.size === options.lanes
  const onAnswer = (lane: number) => {
    answers++
    lanesAnswered.add(lane)
    for (const waiter of waiters.filter((w) => ready(w.count))) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.wake()
    }
  }

  const started = performance.now()
  // Where and when a request was lost, so a failure says which race it met.
  const when = (lane: number, n: number) =>
    `lane ${lane}, request ${n + 1}, ${Math.round(performance.now() - started)} ms in`

  const send = async (lane: number, n: number): Promise<Outcome> => {
    const { body, headers } = await options.next()
    tally.sent++
    return new Promise<Outcome>((resolve) => {
      let written = false
      const req = request(
        { agent, host: '127.0.0.1', port: options.port, path: options.path ?? '/webhooks', method: 'POST', headers },
        (res) => {
          res.resume()
          res.on('end', () => {
            const status = res.statusCode ?? 0
            tally.statuses[status] = (tally.statuses[status] ?? 0) + 1
            const closing = res.headers.connection === 'close'
            if (status === 503 && (res.headers['retry-after'] === undefined || !closing)) {
              tally.bad503.push(JSON.stringify(res.headers))
            }
            onAnswer(lane)
            resolve(closing ? 'closing' : 'answered')
          })
          res.on('error', () => {
            tally.lost.push(`response aborted (${when(lane, n)})`)
            resolve('lost')
          })
        },
      )
      req.on('finish', () => {
        written = true
      })
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (!written && error.code === 'ECONNREFUSED') {
          tally.refused++
          resolve('refused')
        } else {
          const after = written ? ' after the request was written' : ''
          tally.lost.push(`${error.code ?? error.message}${after} (${when(lane, n)})`)
          resolve('lost')
        }
      })
      req.end(body)
    })
  }

  const lane = async (index: number) => {
    for (let i = 0; i < options.maxPerLane; i++) {
      if ((await send(index, i)) === 'refused') return
    }
  }

  const done = Promise.all(Array.from({ length: options.lanes }, (_, index) => lane(index))).then(() => {
    agent.destroy()
    for (const waiter of waiters.splice(0)) waiter.wake()
    return tally
  })
  return {
    tally,
    answered: (count) => (ready(count) ? Promise.resolve() : new Promise((wake) => waiters.push({ count, wake }))),
    done,
    elapsedMs: () => Math.round(performance.now() - started),
  }
}

/** Requests of a tally that got an answer. */
export const answeredCount = (tally: BurstTally): number => Object.values(tally.statuses).reduce((sum, n) => sum + n, 0)
