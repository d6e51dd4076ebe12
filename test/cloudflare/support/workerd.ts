// Runs the stores in workerd (Miniflare) for tests in Node: two Workers bundled from the test worker,
// as two isolates of one app, bound to the same Durable Objects; each store method is sent to one of
// them and run there. Persisted into a folder when asked, so a restart finds the objects' storage.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'

const HERE = fileURLToPath(new URL('..', import.meta.url))
const ROOT = join(HERE, '..', '..')

/** Bundles a Worker from the sources (the repo's tsconfig paths), as a user's bundler would. */
export async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

let script: Promise<string> | undefined

/** The two isolates' names. */
export type Isolate = 'a' | 'b'

export interface Workerd {
  /**
   * Runs `method` of a store made with `options` in isolate `on`. Rejects with the store's error, by
   * name. Calls made in one turn of the event loop travel together and run in workerd at once.
   */
  run<T>(
    on: Isolate,
    store: 'dedup' | 'users' | 'limits',
    method: string,
    args: unknown[],
    options?: object,
  ): Promise<T>
  /** A GET or POST to the first isolate, as a client would send it. */
  fetch(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>
  dispose(): Promise<void>
}

/** The secret the test Worker's receiver verifies with. */
export const SECRET = 'whsec_durable_objects'

/** A store's failure, as the Worker reported it. */
export class StoreCallError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message)
  }
}

/** Starts workerd with the two isolates; `persist` keeps the objects' storage in that folder. */
export async function startWorkerd(persist?: string): Promise<Workerd> {
  script ??= bundle(join(HERE, 'worker.ts'))
  const source = await script
  // Storage no test keeps goes to memory where the system has a RAM disk: workerd flushes every
  // write of an object before it answers, and to a real disk that is milliseconds per answer.
  const scratch = persist
    ? undefined
    : mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'ringhook-do-'))
  const mf = new Miniflare({
    workers: [
      {
        name: 'a',
        modules: true,
        script: source,
        compatibilityDate: '2025-07-01',
        bindings: { RING_WEBHOOK_SECRET: SECRET },
        durableObjects: { RINGHOOK: { className: 'RinghookObject', useSQLite: true } },
      },
      {
        name: 'b',
        modules: true,
        script: source,
        compatibilityDate: '2025-07-01',
        durableObjects: { RINGHOOK: { className: 'RinghookObject', scriptName: 'a', useSQLite: true } },
      },
    ],
    durableObjectsPersist: persist ?? scratch,
  })
  await mf.ready
  // Miniflare types its fetchers with workerd's types; the part used here is plain fetch.
  type Fetcher = { fetch(url: string, init: { method: string; body: string }): Promise<{ json(): Promise<unknown> }> }
  const workers = {
    a: (await mf.getWorker('a')) as unknown as Fetcher,
    b: (await mf.getWorker('b')) as unknown as Fetcher,
  }
  // The calls a test makes at once (in one turn of the event loop) go to each isolate in one request
  // and run there at once: a round trip through Miniflare costs far more than a store call in workerd.
  type Answer = { value?: unknown; error?: { name: string; message: string } }
  type Pending = { call: object; settle: (answer: Answer) => void; fail: (error: unknown) => void }
  const queues: Record<Isolate, Pending[]> = { a: [], b: [] }
  const flush = async (on: Isolate) => {
    const batch = queues[on].splice(0)
    try {
      const response = await workers[on].fetch('http://ringhook.test/', {
        method: 'POST',
        body: JSON.stringify(batch.map((pending) => pending.call)),
      })
      const answers = (await response.json()) as Answer[]
      for (const [i, pending] of batch.entries()) pending.settle(answers[i] ?? {})
    } catch (error) {
      for (const pending of batch) pending.fail(error)
    }
  }
  return {
    async run<T>(on: Isolate, store: string, method: string, args: unknown[], options?: object): Promise<T> {
      const answer = await new Promise<Answer>((settle, fail) => {
        if (queues[on].push({ call: { store, method, args, options }, settle, fail }) === 1)
          setImmediate(() => void flush(on))
      })
      if (answer.error) throw new StoreCallError(answer.error.name, answer.error.message)
      return answer.value as T
    },
    async fetch(path, init) {
      const response = await mf.dispatchFetch(`http://ringhook.test${path}`, init)
      // Miniflare's Response is undici's: the same API as Node's own.
      return response as unknown as Response
    },
    async dispose() {
      await mf.dispose()
      if (scratch) rmSync(scratch, { recursive: true, force: true })
    },
  }
}
