import type { TargetCheck } from './targets.js'

/**
 * What limits a target when it is missed, from profiling (`pnpm --dir bench profile`, see the
 * README) and from A/B runs of bench/perf/core-fast-path.patch against the released build.
 * Kept by hand next to the measurements they explain; a note is printed when one of its
 * targets (matched by the start of the target's name) is missed.
 */
const NOTES: readonly { targets: readonly string[]; note: string }[] = [
  {
    targets: ['receiver.handle()'],
    note:
      '**`receiver.handle()`** does what the baseline does (HMAC, constant-time compare, timestamp window, JSON.parse) ' +
      'plus the method, size and content-type checks, schema validation, a dedup claim and completion, a handler ' +
      'context, the deadline and the JSON reply. Profiled, the released build also spends time on work that buys ' +
      'nothing: the memory store evicts with `entries.keys().next()`, which rescans every slot freed by earlier ' +
      'evictions once the store is full (~3 µs per delivery); an AbortController per delivery (~2.7 µs) although few ' +
      'handlers read `signal`; the signature decoded from hex with `slice` + `parseInt` per byte (~1.3 µs); a deadline ' +
      'timer and `Promise.race` even when handlers return synchronously (~1 µs). ' +
      '[perf/core-fast-path.patch](perf/core-fast-path.patch) removes all four (the 497 core, adapter, conformance, ' +
      'reliability and store-contract tests pass with it): in one interleaved run `handle()` went from 22.7k to 38.1k ' +
      'ops/s (1.7×), and [perf/RESULTS-with-patch.md](perf/RESULTS-with-patch.md) has it at 0.30× the baseline, 0.83× ' +
      "standardwebhooks and 0.36× octokit's `verifyAndReceive`. What remains is the pipeline's own work. Removing steps " +
      'one at a time, the HMAC costs ~10 µs inside the pipeline against ~3 µs alone (its native handles must be ' +
      'finalised by a collector that already takes 12% of the profile, for the dozens of objects each delivery ' +
      'allocates), the dedup claim and completion ~3.5 µs, zod ~0.5 µs. Matching `verifyAndReceive`, which verifies, ' +
      'parses and emits and does nothing else, would take a synchronous path through the whole pipeline for ' +
      'synchronous stores and handlers: a design change to weigh against the guarantees, not a fix.',
  },
  {
    targets: ['verifyWebhook()'],
    note:
      '**`verifyWebhook()`** decodes the signature from hex with `slice` + `parseInt` per byte (19% of its profile) ' +
      'right after a regex has validated it, then awaits an async HMAC wrapper. The patch decodes with a lookup table ' +
      'and lets the node:crypto engine digest synchronously: 1.07× the baseline in ' +
      '[perf/RESULTS-with-patch.md](perf/RESULTS-with-patch.md), 1.2–1.7× the released `verifyWebhook()` in ' +
      'interleaved runs.',
  },
  {
    targets: ['node:http: ringhook', 'Express 5: ringhook', 'Hono (', 'Fetch handler ('],
    note:
      "**Adapters.** A request costs the framework's work plus `receiver.handle()`, so the pipeline cost above is most " +
      'of the gap: at 3–6k req/s on two shared cores, every µs of server CPU per request is 1–2% of throughput, and ' +
      'p99 follows, since 50 connections queue longer behind a slower server. Adapter costs found in the server ' +
      "profiles: the node and Express adapters read the body through Node's async iterator with a timer and a " +
      '`Promise.race` per chunk; `receiver.fetch` and the Hono adapter read `request.body`, which on ' +
      '@hono/node-server builds an undici Request and a web stream (`Readable.toWeb`) for every request; the Hono ' +
      'adapter asks Hono for an execution context, which throws an Error, stack trace included, on every request on ' +
      "Node. The patch reads Node streams through 'data' events with one timer per body, reads a Fetch request whose " +
      "Content-Length fits with `arrayBuffer()` (the server's fast path, still under the body timeout) and looks the " +
      'execution context up only when work outlives the response. Interleaved A/B, 3 × 4 s: node 0.51× → 0.71×, ' +
      'Hono 0.32× → 0.66×, fetch 0.44× → 0.55× of the hand-rolled route; ' +
      '[perf/RESULTS-with-patch.md](perf/RESULTS-with-patch.md) has node 0.65×, Express 0.97×, Hono 0.66×, fetch 0.84×.',
  },
]

export function limitsFor(checks: readonly TargetCheck[]): string[] {
  const missed = checks.filter((c) => !c.met)
  return NOTES.filter(({ targets }) => missed.some((c) => targets.some((t) => c.target.startsWith(t)))).map(
    ({ note }) => note,
  )
}
