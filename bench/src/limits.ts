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
      "**`receiver.handle()` against octokit's `verifyAndReceive()`.** octokit verifies, parses and emits: it " +
      'checks none of the fields and remembers no delivery. The spec asks both of every receiver, and the ' +
      'hand-rolled route that does only what it asks (the `hand-rolled, all the spec asks` row: HMAC, timestamp ' +
      "window, JSON.parse, the payload's fields, a dedup window) runs at 0.66–0.81× `verifyAndReceive()` in the " +
      'same runs (146,215 against 180,031 deliveries/s at 2026-11-24T03:55Z, 110,822 against 167,392 at 05:46Z). Even given the fastest HMAC on Node ' +
      "(ringhook's one-shot: 2.6–2.7 µs a verify against `createHmac`'s 3.8–3.9 in those runs), that route would " +
      "take 5.7–5.8 µs a delivery against octokit's 5.1–5.6: 0.90–0.96×. `receiver.handle()` does what the route " +
      'does and the method, size and content-type checks, the `__proto__` scan, exactly-once claim and completion, ' +
      'the handler context and the reply, at 0.78–0.86× the spec-complete route (0.81× at 05:46Z). The target asks the whole pipeline to beat a library that ' +
      'does less than the spec requires, by more than the hand-written minimum can; it is not met while ringhook ' +
      'validates and deduplicates. What bought the speed so far (a pipeline without promises for buffered bodies, ' +
      'one-shot HMAC, a synchronous memory store, predicates written beside the zod schemas, one definition each, for valid payloads and vibes) is ' +
      'in HISTORY.md and the READMEs.',
  },
  {
    targets: ['verifyWebhook()'],
    note:
      '**`verifyWebhook()`** is the baseline plus the header checks and one promise (its API is async for Web ' +
      'Crypto); its HMAC is two one-shot hashes, about twice as fast as `createHmac` on Node 20.',
  },
  {
    targets: ['node:http: ringhook', 'Fastify 5', 'Koa 3', 'Hono (', 'Fetch handler ('],
    note:
      '**Adapters.** Since 2026-11-24 20:00Z every server starts with its address space not randomised and ' +
      "V8's seeds fixed (src/http/launch.ts): four processes of one route read 1.02–1.05× fastest over slowest " +
      '(1.08–1.18× before), the route against itself 0.958–1.034× (13 runs; 0.970–1.048× in 13 before). Runs of ' +
      'different code still move by a few percent: ringhook on Fastify read 0.92–0.98× in eight runs (a steady ' +
      "gap the noise had hidden), then, once the plugin read its body in Fastify's content-type parser, 0.98–1.06× " +
      'in nine reruns and 1.02× in the full run of 20:23Z (server CPU 0.99×); on the next machine (AMD EPYC, ' +
      '21:40–22:35Z) 0.89–0.98× in thirteen runs, server CPU 1.05–1.14×. On 2026-11-25 (the same kind of ' +
      'machine, twice as fast: the route 38,000–43,000 req/s) it read 0.96–0.98× in three runs; after the ' +
      'pipeline stopped making a closure at each stage (HISTORY.md), 0.95–0.99× in ten runs and 0.99× in the full ' +
      'run of 00:59Z (server CPU 1.00–1.06×, p99 0.82–0.97×), and Koa 0.98–1.02× in seven (p99 0.92–1.06×). ' +
      'On 2026-11-24 Koa read 1.02–1.07×, Hono 0.98×, the fetch ' +
      "handler 0.96×, Express 1.26× that day. p99 is read more loosely than req/s: Fastify's read 0.86, 1.00, " +
      "1.19, 1.11, 0.99, 0.99 and 1.17× its route's in seven runs after the change (1.04× on average), and the route against itself 0.87–1.06× (ten " +
      'runs), its quiet slices alike for both (5.0–5.6 ms) and the rest 6–14 ms. ' +
      'node:http reads 0.79–0.85× (0.82× at 20:23Z): server CPU ' +
      "1.18–1.28× the route's, 46–54 against 38–44 µs a request. The node:http route is the leanest server here (no " +
      "framework: Fastify's own route costs 54 µs), so ringhook's own work shows most against it. Measured in " +
      "pinned pairs (5 rounds of 3 s, 15:10–15:20Z): reading the body through ringhook's `StreamBody` instead of " +
      "two listeners costs the route nothing measurable (22,237 against 22,462 req/s); writing ringhook's two " +
      'headers (`content-type` with charset, `cache-control: no-store`) instead of one, about 1 µs; the rest is ' +
      'the receiver itself, which in one process costs ~3 µs a delivery more than the route (`receiver.handle()` ' +
      'against the spec-complete hand-rolled row: the exactly-once claim and completion, the method, size and ' +
      'content-type checks, the handler context). Reading the body ahead in node:http, as the Fastify plugin ' +
      'does, was tried and not kept: no gain showed (0.88 and 0.90× against 0.90 and 0.88×, in a slow spell), and ' +
      "calling the receiver from the stream's 'end' event lost the request's async context (the OpenTelemetry " +
      "test of a span under the HTTP server's caught it; Fastify's parser restores it). What was cut, and what " +
      'was tried and not kept: HISTORY.md.',
  },
  {
    targets: ['OpenTelemetry'],
    note:
      "**OpenTelemetry.** A span per delivery is mostly the SDK's cost. In one process, on `receiver.handle()` " +
      '(7.2–8.0 µs a delivery without instrumentation): `otelInstrumentation()` with no SDK registered adds ' +
      "0.4–1.0 µs; the SDK's tracer (BatchSpanProcessor) 5 µs more, of which the SDK's own span (started, ten " +
      "attributes, ended, batched) is 2.1 µs measured alone; its meter ~0.8 µs. The required parts of ringhook's " +
      "own share are the dedup key's SHA-256 (a pseudonym, never the key), the context handed to handlers so " +
      "their spans are children of the delivery's, and the attributes. In the HTTP server the instrumented " +
      'receiver spends 15–35 µs more server CPU a request than the plain one (40–42 µs), which is 0.57×–0.99× ' +
      'its req/s across runs under autocannon, 0.66–0.68× (78–81 against 51–52 µs) in the two full HTTP runs ' +
      "with the lighter load generator of 2026-11-24 15:00Z; without the AsyncLocalStorage context manager it spends as much, so the server's " +
      'extra over the in-process cost is not the context; nor is it garbage collection (`--trace-gc`: 3.5 against ' +
      '2.2 µs of collection per request). It is the SDK on the asynchronous path a streamed body takes: in one ' +
      'process with bodies streamed as a server reads them, 50 deliveries in flight, the SDK costs 10–20 µs a ' +
      'delivery (11.5 µs without instrumentation, 12.2–12.9 with no SDK); its CPU profile puts 9.4 µs a delivery in the ' +
      "SDK's own functions: ~5.5 in the span (start, attributes, clock, end), ~2.3 in one histogram record " +
      '(`ringhook.handler.duration`, whose attributes it hashes on every record).',
  },
  {
    targets: ['enqueue path'],
    note:
      '**The enqueue path** (`@ringhook/bullmq`) is bound by CPU, not by Redis round trips: it spends 108–132 µs of ' +
      "server CPU per delivery against the inline receiver's 42–52 µs (job serialisation, BullMQ's bookkeeping and " +
      'ioredis around each add), and on 2 cores shared with Redis and the load generator that sets its rate. Tried on ' +
      "2026-11-24 and left out: the adds of one event-loop turn sent together through BullMQ's `addBulk` (one " +
      'transaction, one round trip): 7,823–8,267 deliveries/s at 112–118 µs a delivery, against 5,260–8,441 at ' +
      '109–190 µs without, in alternated runs: no gain beyond the noise. The target was met (0.54×) in a run where the inline receiver ' +
      'was slower (14,942/s); the queue path itself was as fast then (8,122/s) as in the full runs (7,182–8,518/s).',
  },
]

/**
 * Bundle, cold start and memory, after core moved to zod/mini bundled into its dist
 * (packages/core/tsup.config.ts); prototypes measured in scratch builds, as said.
 */
const DEPLOYMENT_NOTES: readonly { targets: readonly string[]; note: string }[] = [
  {
    targets: ['bundle:'],
    note:
      '**The Workers bundle is core and the zod/mini it bundles** (22.4 KB gzipped: 62.7 KB minified, about ' +
      "half of it zod's parsers). It was 103.3 KB when core imported `{ z } from 'zod'`, a namespace esbuild " +
      'cannot shake. Core with no zod at all would be ~11 KB.',
  },
  {
    targets: ['cold start:'],
    note:
      '**Cold start on Bun.** The hand-rolled route on Bun answers its first delivery 48–55 ms after spawn ' +
      '(runtime boot ~13 ms), so 1.5× leaves ~25 ms for importing core, building the receiver and the first ' +
      "delivery's extra work. Importing core's dist is ~12 ms above an empty module (15–16 ms against 3.3–4.3): " +
      "loading its code, zod's included, since no zod schema is built any more until a delivery is invalid " +
      '(HISTORY.md, "no zod schema built for a valid delivery": 1.44–1.61× before it, 1.30× after). ' +
      "octokit's web middleware, whose import is ~21 ms, is 1.29–1.47× in the same runs. Done so far: zod/mini " +
      'bundled into core (import 32 → 16 ms), node:crypto on Node only, the API schemas in their own entry ' +
      '(`@ringhook/core/api`), predicates instead of zod schemas on the valid path. Node and Deno meet the target.',
  },
  {
    targets: ['memory: node:http peak RSS'],
    note:
      '**Peak RSS** has three parts. Code: after one delivery the ringhook server now holds ~2 MB more than ' +
      'the hand-rolled one (48.7 against 46.6 MB; 59.6 MB when core loaded zod classic as a dependency). Data: ' +
      "the dedup store's ~310–610 heap bytes per remembered delivery (the Heap per stored dedup entry table). " +
      'The rest is heap the server keeps under load (the garbage of thousands of deliveries a second between ' +
      'collections); it varies most between runs (1.22× to 1.51× on this machine) and is not yet split further.',
  },
]

export function limitsFor(checks: readonly TargetCheck[]): string[] {
  const missed = checks.filter((c) => !c.met)
  return [...NOTES, ...DEPLOYMENT_NOTES]
    .filter(({ targets }) => missed.some((c) => targets.some((t) => c.target.startsWith(t))))
    .map(({ note }) => note)
}
