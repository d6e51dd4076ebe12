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
      'plus the method, size and content-type checks, a scan for `__proto__` keys, schema validation, an exactly-once ' +
      'dedup claim and completion, a handler context and the JSON reply. This release made it ~2.5× faster (about 23k ' +
      '→ 57k deliveries/s on this machine): a buffered delivery through the memory store with synchronous handlers ' +
      'now passes through without a single promise (each stage hands on a value, or a promise only when it has to ' +
      'wait); the HMAC is two one-shot hashes compared as hex, since `createHmac` builds an OpenSSL context per call ' +
      'and its Buffer digest is costly to hand back; the memory store answers synchronously and evicts through a ring; ' +
      'the child logger and abort signal are made only when a handler reads them. It now meets the 0.5× and ' +
      "standardwebhooks targets. Against octokit's `verifyAndReceive`, which verifies (with `createHmac`, slower than " +
      "ringhook's verify), parses and emits and does nothing else, what ringhook adds per delivery, measured one step " +
      'at a time on this machine: schema validation ~1.0 µs, the dedup claim and completion ~1.3 µs, the `__proto__` ' +
      'scan ~0.5 µs, and the checks, context and reply ~1–2 µs. Those are the features (validated payloads, ' +
      'exactly-once, no prototype pollution); the ratio is not worth any of them.',
  },
  {
    targets: ['verifyWebhook()'],
    note:
      '**`verifyWebhook()`** is the baseline plus the header checks and one promise (its API is async for Web ' +
      'Crypto); its HMAC is two one-shot hashes, about twice as fast as `createHmac` on Node 20.',
  },
  {
    targets: ['node:http: ringhook', 'Hono (', 'Fetch handler ('],
    note:
      "**Adapters.** Express meets both targets, and on node:http ringhook beats @octokit/webhooks' own node " +
      'middleware in the same run. Found by measuring server CPU per request (the `server CPU µs/req` column) and fixed ' +
      'in this release: a `setTimeout` per body cost ~20 µs of server CPU per request under load (Node keeps a Timeout ' +
      'object and timer-list upkeep for each), so body deadlines now share one coarse timer; looking up `body` and ' +
      '`rawBody` on an IncomingMessage (absent, so a walk of its prototype chain) cost ~10 µs, now skipped for unread ' +
      'streams; and the synchronous pipeline above. node:http went from 0.61× to ~0.8×, Hono from 0.71× to ~0.87×, ' +
      'the fetch handler from 0.58× to ~0.9×. What remains is the work `receiver.handle()` does beyond the ' +
      'hand-rolled route, which costs ~20–28 µs of CPU per request inside a server against ~5 µs in the micro bench. ' +
      'It is not instructions: callgrind counts fewer instructions per request for the ringhook node server than for ' +
      'the hand-rolled one (314k against 338k, 2,000 requests over 50 connections after a warm-up). It is the memory ' +
      "system: between two requests the server runs Node's HTTP code, so ringhook's larger working set (thousands of dedup " +
      "entries, zod's compiled parsers, more objects per delivery) misses the caches where the hand-rolled route, a " +
      'few lines with no state, does not. On this 2-core machine the load generator shares the cores, so each of ' +
      'those µs comes straight off req/s and p99; on a server with its own cores the same CPU per request is 1.13–1.25×.',
  },
  {
    targets: ['enqueue path'],
    note:
      '**The enqueue path** (`@ringhook/bullmq`) waits for one Redis round trip per delivery (BullMQ stores the job ' +
      "with one script) and spends about twice the inline receiver's server CPU per delivery (job serialisation and " +
      "BullMQ's bookkeeping around the call); the rest of the gap is Redis latency, which a Redis shared with other " +
      'work or on another host makes larger. Not yet tried: sending the adds of one event-loop turn as one pipeline ' +
      "(BullMQ's `addBulk`), so that under load one round trip carries many deliveries.",
  },
]

/**
 * Bundle, cold start and memory: measured on prototypes of @ringhook/core built in a scratch copy
 * (same sources, schemas rewritten for zod/mini; see the investigation in the perf19 report).
 */
const DEPLOYMENT_NOTES: readonly { targets: readonly string[]; note: string }[] = [
  {
    targets: ['bundle:'],
    note:
      "**The Workers bundle is zod.** Of the 483 KB minified, zod is 454 KB and @ringhook/core's own code 29 KB. " +
      "Core imports `{ z } from 'zod'`: that namespace object re-exports all of zod classic, its JSON Schema " +
      'converters and its locales, and esbuild cannot drop any of it. Prototypes built from the same sources, ' +
      "bundled the same way: `import * as z from 'zod'` (classic, but shakeable) 38.0 KB gzipped; zod 4's `zod/mini` " +
      '(the installed 4.6.7 ships it; same schemas, functional checks) 19.3 KB; core with no zod at all 10.8 KB. ' +
      'Every inferred public type (events, vibes, replies, triggers, the receiver and its handlers) stays identical ' +
      'under zod/mini; the exported schema objects become zod/mini schemas.',
  },
  {
    targets: ['cold start:'],
    note:
      "**Cold start is importing zod's module graph.** Unbundled, as installed, `import('@ringhook/core')` loads " +
      "zod's ~95 files (64 of them locales) before the receiver exists: the import column above, where the " +
      'hand-rolled routes import next to nothing. The first delivery costs more too: zod compiles its parsers on ' +
      'first use. On node the runtime boot (~70 ms, more on a busy machine) is in both totals and dilutes the ' +
      'ratio; bun boots in ~3 ms, so its ratio is the import almost alone. Prototypes, import + create + first ' +
      'delivery in one process, medians of 7 runs (node / bun / deno, ms): today 87 / 44 / 43; zod/mini as a ' +
      "dependency 78 / 36 / 33 (it still loads zod core and its locales); zod/mini bundled into core's single " +
      'dist file 19 / 19 / 16, and 16 / 14 / 15 with the API schemas out of the root entry. A hand-rolled Web ' +
      'Crypto verify of one delivery takes 5 / 0.6 / 0.8.',
  },
  {
    targets: ['memory: node:http peak RSS'],
    note:
      '**Peak RSS** has three parts. Code: after one delivery the ringhook server holds ~13 MB more than the ' +
      'hand-rolled one (the memory section\'s "RSS after one delivery"); in a bare script after a full GC, node alone is 41.1 MB, with today\'s ' +
      "core 57.5 MB, with a prototype core that bundles zod/mini into its dist 47.0 MB. Data: the dedup store's " +
      '~360–610 heap bytes per remembered delivery (table above), 3.6–6.1 MB at its 10,000-entry bound. The rest ' +
      'is heap the server keeps under load (the garbage of thousands of deliveries a second between collections); ' +
      'it varies most between runs (1.22× to 1.51× on this machine) and is not yet split further.',
  },
]

export function limitsFor(checks: readonly TargetCheck[]): string[] {
  const missed = checks.filter((c) => !c.met)
  return [...NOTES, ...DEPLOYMENT_NOTES]
    .filter(({ targets }) => missed.some((c) => targets.some((t) => c.target.startsWith(t))))
    .map(({ note }) => note)
}
