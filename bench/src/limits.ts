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
      "**Cold start.** Importing core now loads one file (zod/mini's parts bundled in) instead of zod's ~95 " +
      'module files: import 16 / 16 / 10 ms on node / bun / deno, from 76–80 / 32 / 33. Two costs remain. ' +
      '(1) The first delivery: core reaches `node:crypto` through `process.getBuiltinModule` wherever it ' +
      'exists, and on Deno loading its node:crypto costs ~43 ms (Bun ~6 ms), where Web Crypto is already ' +
      'there; a prototype that uses node:crypto on Node only took the first delivery from 33 to 14 ms on Deno ' +
      '(1.88× → 1.44×) and from 12 to 7 ms on Bun (not yet in core: packages/core/src/crypto/builtin.ts). ' +
      '(2) On Bun the whole hand-rolled cold start is ~13 ms, so 1.5× leaves ~6 ms for importing core and its ' +
      "schemas, which take 16 (a bare `import('@ringhook/core')` ~12 ms, like octokit's 9.5 ms, which is 1.8× " +
      'itself); the API schemas (used by @ringhook/client and the simulator only) in a separate entry would ' +
      'save a few ms more.',
  },
  {
    targets: ['memory: node:http peak RSS'],
    note:
      '**Peak RSS** has three parts. Code: after one delivery the ringhook server now holds ~2 MB more than ' +
      'the hand-rolled one (48.7 against 46.6 MB; 59.6 MB when core loaded zod classic as a dependency). Data: ' +
      "the dedup store's ~360–610 heap bytes per remembered delivery, 3.6–6.1 MB at its 10,000-entry bound. " +
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
