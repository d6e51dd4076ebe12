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
      '**OpenTelemetry.** Held to a hand-rolled route that emits the same telemetry (the same ten span ' +
      'attributes, its dedup key hashed for one of them, the same histogram by event and handler outcome), ' +
      "the SDK's work is alike on both: tracing cost ringhook 63 µs of server CPU a request and the route 66 µs " +
      '(full run, 2026-11-27 morning); 36 and 33 µs on the machine of that afternoon. What is ' +
      'left is the plain node:http gap above, which the traced row inherits whole: in the same four-server ' +
      'runs that afternoon plain ringhook read 0.882× and 0.863× the route and traced ringhook 0.852× and ' +
      '0.888× the traced route; that morning 0.867–0.913× in ten pairs (median 0.896×) and 0.899× and 0.896× ' +
      'in two full runs. The target assumed the SDK would dominate both servers; at 33–66 µs a request it ' +
      "does not hide a 6–10 µs difference. The required parts of ringhook's own share are the dedup key's " +
      'SHA-256 (a pseudonym, never the key), the context handed to handlers so their spans are children of ' +
      "the delivery's, and the attributes. Reading the body ahead, to drop the node adapter's promises under " +
      'the AsyncLocalStorage context manager, showed no gain (HISTORY.md).',
  },
  {
    targets: ['capture of every delivery'],
    note:
      '**Capture of every delivery.** The record asked for (the body as text, the request headers, the ' +
      'answer, the outcome, one JSON line, written) costs ~4.7 µs in one process on the bench machine of ' +
      "2026-11-27 (the bench's 250-byte event: the record 0.7 µs, its JSON 2.4 µs without the body and 0.5 " +
      'for the body, encoding 0.5) and 0.5–0.8 µs to write; under the HTTP load about twice as much: 9–15 µs ' +
      'of server CPU a delivery over 45–50 µs without capture. 10% of a delivery is 4.5–5 µs, less than the ' +
      'record costs in one process, so the target is met only when the run favours it: full runs read ' +
      "0.77–0.91× that morning (0.899× at 11:39Z) and 0.83× and 0.74× on the afternoon's machine (+15 and +25 µs " +
      'of CPU a delivery over 75–76 µs). Writing the body as raw JSON instead of a string would save ' +
      '~0.6 µs of the 4.7 (HISTORY.md). Nothing chosen is lost under the load (the records-lost target); ' +
      '`outcomes` and `sampleRate` keep the cost to the deliveries worth replaying.',
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
      '**Cold start on Bun.** The hand-rolled route imports nothing and Bun boots in 3–4 ms, so the route ' +
      'answers its first delivery 13–19 ms after spawn (by machine), and 1.5× leaves 6.5–9.5 ms for ' +
      'importing a library, building its receiver and its first delivery. On the machine of 2026-11-27 ' +
      'afternoon (route 13.2–14.1 ms; ringhook 2.02–2.18×, octokit 1.89× in the same runs), measured in one ' +
      "Bun process: importing core 11–12 ms (an empty module 1.2 ms; zod/mini's chunk alone 5–7 ms, of which " +
      'its evaluation 0.6–1.2 ms; minified, no faster), creating the receiver 1.1–1.4 ms (a second one ' +
      '0.07 ms), the first delivery 4.3–5.4 ms (the next 0.6 ms). So most of it is Bun compiling each ' +
      'function the first time it runs: it grows with the code a delivery passes through, not with what ' +
      "that code does, and octokit's middleware alone imports in 11 ms. On a slower-booting machine " +
      'ringhook read 1.53× and 1.56× (octokit 1.31–1.35×). Done so far: zod/mini bundled into core (import ' +
      '32 → 16 ms), node:crypto on Node only, the API schemas in their own entry (`@ringhook/core/api`), ' +
      "predicates instead of zod schemas on the valid path, SHA-256 by Bun's own hasher (first delivery " +
      '8.70 → 7.42 ms, HISTORY.md). Node and Deno meet the target.',
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
