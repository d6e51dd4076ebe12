// A Worker for the tests: exports the Durable Object, and runs any of the three stores' operations
// for the test in Node, so that the stores' code runs here in workerd against real objects.
import {
  createDurableLimitStore,
  createDurableStore,
  durableUserStore,
  type ObjectNamespace,
} from '@ringhook/cloudflare'

export { RinghookObject } from '@ringhook/cloudflare'

interface Env {
  RINGHOOK: ObjectNamespace
}

/** One operation: which store (made with `options`), which method, its arguments. */
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

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const call = (await request.json()) as Call
    try {
      const value = await run(env, call)
      return Response.json({ value: value ?? null })
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error))
      return Response.json({ error: { name, message } })
    }
  },
}
