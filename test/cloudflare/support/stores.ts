// The three stores as the tests in Node hold them: each method runs in workerd, in the isolate given.
import type { LimitStore } from '@ringhook/client'
import type { DedupStore } from '@ringhook/core/store'
import type { Stamp, UserStore } from '@ringhook/users'
import type { Isolate, Workerd } from './workerd.js'

/** The Durable Object dedup store, as isolate `on` has it. */
export function dedupStore(workerd: Workerd, on: Isolate, options: object = {}): DedupStore {
  const run = <T>(method: string, args: unknown[]) => workerd.run<T>(on, 'dedup', method, args, options)
  return {
    claim: (key, ttl) => run('claim', [key, ttl]),
    complete: (key, token, reply, ttl) => run('complete', [key, token, reply, ttl]),
    release: (key, token) => run('release', [key, token]),
  }
}

/** The Durable Object users' store, as isolate `on` has it. */
export function userStore(workerd: Workerd, on: Isolate, options: object = {}): UserStore {
  const run = <T>(method: string, args: unknown[]) => workerd.run<T>(on, 'users', method, args, options)
  return {
    apply: (user, seen, margin) => run('apply', [user, seen, margin]),
    get: async (user) => (await run<Stamp | null>('get', [user])) ?? undefined,
    async *pages(status, size) {
      yield* await run<Array<Array<[string, Stamp]>>>('pages', [status, size])
    },
    count: () => run('count', []),
  }
}

/** The Durable Object limit store, as isolate `on` has it. */
export function limitStore(workerd: Workerd, on: Isolate, options: object = {}): LimitStore {
  const run = <T>(method: string, args: unknown[]) => workerd.run<T>(on, 'limits', method, args, options)
  return {
    shared: true,
    take: (request) => run('take', [request]),
    pause: (scope, user, ms) => run('pause', [scope, user ?? null, ms]),
    remaining: (user, rule) => run('remaining', [user, rule]),
    leave: (ticket) => run('leave', [ticket]),
    restore: (grants, rules) => run('restore', [grants, rules]),
  }
}
