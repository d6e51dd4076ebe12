// A Worker for the tests: exports the Durable Object, and runs any of the three stores' operations
// for the test in Node, so that the stores' code runs here in workerd against real objects. Also
// serves a receiver on the dedup store (`/webhooks`), and lets a test look into an object or hold it.
import {
  createDurableLimitStore,
  createDurableStore,
  durableUserStore,
  type ObjectNamespace,
  type ObjectState,
  RinghookObject as StoresObject,
} from '@ringhook/cloudflare'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'

interface Env {
  RINGHOOK: ObjectNamespace
  RING_WEBHOOK_SECRET: string
}

/**
 * The package's object, unchanged, with two doors for the tests: `/rows` counts what its tables
 * hold (to see the alarm delete what lapsed), `/hold?ms=` keeps every other request out for that
 * long (an object that does not answer, as an overloaded or unreachable one), and tells the object
 * named `signal` once it does (`/mark`; `/marked` answers whether it was told).
 */
export class RinghookObject extends StoresObject {
  readonly #ctx: ObjectState
  readonly #env: Env
  #marked = false

  constructor(ctx: ObjectState, env: Env) {
    super(ctx, env)
    this.#ctx = ctx
    this.#env = env
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/rows') {
      const { sql } = this.#ctx.storage
      const tables = sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray()
      const rows: Record<string, number> = {}
      for (const { name } of tables) {
        if (String(name).startsWith('_cf')) continue
        rows[String(name)] = Number(sql.exec(`SELECT COUNT(*) AS n FROM "${String(name)}"`).toArray()[0]?.n)
      }
      return Response.json({ rows, alarm: await this.#ctx.storage.getAlarm() })
    }
    if (url.pathname === '/mark') this.#marked = true
    if (url.pathname === '/marked' || url.pathname === '/mark') return Response.json({ marked: this.#marked })
    if (url.pathname === '/hold') {
      const ms = Number(url.searchParams.get('ms'))
      const signal = this.#env.RINGHOOK.get(this.#env.RINGHOOK.idFromName(String(url.searchParams.get('signal'))))
      // The object's answer to this request waits for the hold too: the signal says it has begun.
      await this.#ctx.blockConcurrencyWhile(async () => {
        await signal.fetch(new Request('https://signal/mark'))
        await new Promise((resolve) => setTimeout(resolve, ms))
      })
      return Response.json({ held: ms })
    }
    return super.fetch(request)
  }
}

/** One operation: which store (made with `options`), which method, its arguments; a request holds several. */
interface Call {
  store: 'dedup' | 'users' | 'limits'
  options?: Record<string, unknown>
  method: string
  args: unknown[]
}

async function run(env: Env, { store, options, method, args }: Call): Promise<unknown> {
  const given = { ...options, namespace: env.RINGHOOK }
  if (store === 'users' && method === 'pages') {
    const all: unknown[] = []
    const users = durableUserStore(given)
    for await (const page of users.pages(args[0] as 'active', args[1] as number)) all.push(page)
    return all
  }
  const target =
    store === 'dedup'
      ? createDurableStore(given)
      : store === 'users'
        ? durableUserStore(given)
        : createDurableLimitStore(given)
  const fn = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[method]
  if (typeof fn !== 'function') throw new TypeError(`no method ${method}`)
  return fn.apply(target, args)
}

/** A receiver on one dedup shard, waiting at most `timeoutMs` for it. */
function receiverFor(env: Env, timeoutMs: number) {
  const store = createDurableStore({ namespace: env.RINGHOOK, shards: 1, prefix: 'webhooks:', timeoutMs })
  const receiver = createReceiver({ secret: env.RING_WEBHOOK_SECRET, store, logger: silentLogger })
  receiver.on('gesture', (event) => vibe('tap').message(`${event.gesture_type} in workerd`))
  return receiver
}

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/webhooks') {
      return receiverFor(env, Number(url.searchParams.get('timeoutMs') ?? 2000)).fetch(request, env, ctx)
    }
    if (['/rows', '/hold', '/marked'].includes(url.pathname)) {
      const object = env.RINGHOOK.get(env.RINGHOOK.idFromName(String(url.searchParams.get('object'))))
      return object.fetch(new Request(url))
    }
    // A batch of calls the test made at once, run here at once: one round trip from Node for all.
    const calls = (await request.json()) as Call[]
    const answers = await Promise.all(
      calls.map(async (call) => {
        try {
          return { value: (await run(env, call)) ?? null }
        } catch (error) {
          const { name, message } = error instanceof Error ? error : new Error(String(error))
          return { error: { name, message } }
        }
      }),
    )
    return Response.json(answers)
  },
}
