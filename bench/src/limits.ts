import type { TargetCheck } from './targets.js'

/**
 * What limits a target when it is missed, from profiling (`pnpm --dir bench profile`, see the
 * README) and from A/B runs of each fix against the build before it.
 * Kept by hand next to the measurements they explain; a note is printed when one of its
 * targets (matched by the start of the target's name) is missed.
 */
const NOTES: readonly { targets: readonly string[]; note: string }[] = [
  {
    targets: ['receiver.handle()'],
    note:
      '**`receiver.handle()`** does what the baseline does (HMAC, constant-time compare, timestamp window, JSON.parse) ' +
      'plus the method, size and content-type checks, schema validation, a dedup claim and completion, a handler ' +
      'context, the deadline and the JSON reply. Profiling found, and this release removed, work that bought nothing: ' +
      'an eviction in the memory store that rescanned every freed slot once the store was full, an AbortController per ' +
      'delivery (now made only when a handler reads `signal`), hex decoded with `parseInt` per byte, a deadline timer ' +
      'for handlers that return synchronously, and an async HMAC where node:crypto is synchronous: 22.7k → ~35–38k ' +
      'ops/s. What remains, measured one step at a time: the HMAC ~3.5 µs (as in the baseline), the dedup claim and ' +
      'completion ~2.3 µs (what buys exactly-once), JSON ~1 µs, zod ~0.7 µs, and the async pipeline itself, a dozen ' +
      'promise hops and the garbage they leave (GC is ~16% of the profile). Matching `verifyAndReceive`, which ' +
      'verifies, parses and emits and nothing else, needs a synchronous path through the whole pipeline for ' +
      'synchronous stores and handlers: the next step, not taken in this release.',
  },
  {
    targets: ['verifyWebhook()'],
    note:
      '**`verifyWebhook()`** is the baseline plus the header checks (a regex on the signature and on the timestamp) and ' +
      'one promise, since its API is async for Web Crypto: 0.99–1.07× across runs, within the noise of this machine.',
  },
  {
    targets: ['node:http: ringhook', 'Hono (', 'Fetch handler ('],
    note:
      "**Adapters.** Express meets both targets. On node:http ringhook is on a par with @octokit/webhooks' own node " +
      'middleware in the same run. The load generator shares the two cores with the server, so every µs of server CPU ' +
      'per request costs throughput and p99: measured with `process.cpuUsage()` over a run, the ringhook node server ' +
      'spends 35–60 µs more CPU per request than the hand-rolled route, more than the ~16 µs `receiver.handle()` adds ' +
      'in the micro bench. The rest is not located yet (candidates: the per-body timer and stream listeners, the ' +
      'response headers, garbage under load); it is the next thing to profile. Fixed in this release: Node bodies are ' +
      "read through 'data' events with one timer instead of an async iterator with a timer per chunk, Fetch bodies " +
      "whose Content-Length fits with `arrayBuffer()` instead of a web stream, and Hono's execution context is looked " +
      'up only when work outlives the response (it throws, stack trace included, on Node).',
  },
]

export function limitsFor(checks: readonly TargetCheck[]): string[] {
  const missed = checks.filter((c) => !c.met)
  return NOTES.filter(({ targets }) => missed.some((c) => targets.some((t) => c.target.startsWith(t)))).map(
    ({ note }) => note,
  )
}
