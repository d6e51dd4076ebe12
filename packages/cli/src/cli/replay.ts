import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CaptureFileError,
  type CaptureFilter,
  type CaptureLines,
  mergePatch,
  type ReplayResult,
  readCaptures,
  replay as replayCaptures,
} from '@ringhook/capture'
import type { CapturedDelivery, CaptureOutcome } from '@ringhook/core/capture'
import { captureOutcomeSchema } from '@ringhook/core/capture'
import { ANSWER_CAP_BYTES, cutNote, redirectNote } from '../answer.js'
import { type CaptureStore, CaptureStoreError, readStoreCaptures } from './capture-source.js'
import { EXIT, type Io, parseCommand, parseJson, UsageError } from './io.js'
import { DEFAULT_TIMEOUT_MS, TIMEOUT_ENV, TIMEOUT_FLAG, timedOut, timeoutFrom } from './timeout.js'

export const replayHelp = `Usage: ringhook replay <capture.jsonl> --url <url> [options]
       ringhook replay --redis <url> [--stream <key>] --url <url> [options]
       ringhook replay --postgres <url> [--table <name>] --url <url> [options]

Sends captured deliveries to a receiver, one after another in the order captured, each signed again
with the target's secret and a fresh timestamp; then prints what each got, and a summary. Each goes
to --url only: a redirect is printed as its answer, with its Location, and not followed; an answer
is read up to 64 KiB. They are
read from one of: a file written by fileSink from @ringhook/capture (with its rotated files), the
Redis stream of redisCaptureSink (@ringhook/redis), or the Postgres table of postgresCaptureSink
(@ringhook/postgres). Those two packages are optional: install the one you read from beside the
CLI (and pg for Postgres). A line of a capture file that is not a record (cut by a crash) is
skipped and named; a record whose body was not captured whole is not sent.

A delivery that was not authenticated when it arrived (a wrong or missing signature: anyone can
send one) is not sent, since it would be signed with the target's secret: a forgery would be
trusted. --include-unauthenticated sends those too, and says how many it sent; --dry-run marks them.

Where from (one of them):
  <capture.jsonl>      a capture file
  --redis <url>        a Redis: redis://127.0.0.1:6379/0
  --stream <key>       its stream; default ringhook:captures
  --postgres <url>     a Postgres: postgres://user@127.0.0.1:5432/app
  --table <name>       its table; default ringhook_captures

Options:
  --url <url>          the receiver to send to (required)
  --secret <secret>    its webhook secret; default the RING_WEBHOOK_SECRET environment variable
  --event <names>      only these events (comma-separated: gesture,notification.responded)
  --outcome <names>    only deliveries that came to these: accepted, duplicate, refused, failed
  --since <time>       only those that arrived since an ISO 8601 time, or minutes/hours ago (15m, 2h)
  --id <ids>           only these records (comma-separated)
  --dry-run            send nothing: print each request that would be sent
  --include-unauthenticated
                       also send the deliveries that were not authenticated (strangers', maybe forged)
  --edit               open $EDITOR (or $VISUAL, vi) on each payload before it is sent
  --patch <file>       change each payload with a JSON Merge Patch file (RFC 7396), for scripts
  --json               print the summary as JSON
  --timeout <ms>       give up on the receiver, Redis or Postgres when one does not answer after
                       this long (each delivery's answer, each store's read); default
                       $${TIMEOUT_ENV}, else ${DEFAULT_TIMEOUT_MS}

Exit codes: 0 every delivery answered 2xx (or a dry run), 1 one was not, 2 usage error (or a
store's package not installed, or what was read is not captures), 3 the receiver, Redis or
Postgres did not answer.`

const REPLAY_FLAGS = {
  redis: { type: 'string' },
  stream: { type: 'string' },
  postgres: { type: 'string' },
  table: { type: 'string' },
  url: { type: 'string' },
  secret: { type: 'string' },
  event: { type: 'string' },
  outcome: { type: 'string' },
  since: { type: 'string' },
  id: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'include-unauthenticated': { type: 'boolean' },
  edit: { type: 'boolean' },
  patch: { type: 'string' },
  json: { type: 'boolean' },
  ...TIMEOUT_FLAG,
} as const

export async function replay(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, REPLAY_FLAGS, replayHelp, io)
  if (parsed === null) return EXIT.ok
  const { values, positionals } = parsed
  const source = sourceOf(values, positionals)
  if (!values.url) throw new UsageError('--url is required: the receiver to send the deliveries to.')
  const secret = values.secret ?? process.env.RING_WEBHOOK_SECRET
  if (!secret) throw new UsageError("--secret (or RING_WEBHOOK_SECRET) is required: the target's webhook secret.")
  if (values.edit && values.patch) throw new UsageError('Give --edit or --patch, not both.')
  const timeoutMs = timeoutFrom(values.timeout)
  const patch = values.patch === undefined ? undefined : parseJson(readText(values.patch, '--patch'), '--patch')

  let records: CaptureLines
  try {
    const filter = filterOf(values)
    records =
      typeof source === 'string'
        ? await readCaptures(source, filter)
        : Object.assign(await readStoreCaptures(source, filter, timeoutMs), { skipped: [] })
  } catch (error) {
    if (error instanceof CaptureFileError) throw new UsageError(error.message)
    if (!(error instanceof CaptureStoreError)) throw error
    io.err(`✘ ${error.message}`)
    return error.exitCode
  }
  const [firstBad] = records.skipped
  if (records.length === 0 && firstBad !== undefined)
    throw new UsageError(`No line is a captured delivery: ${firstBad.file}:${firstBad.line} is ${firstBad.reason}`)
  // Lines cut by a crash or edited by hand are named; the records around them still go.
  for (const bad of records.skipped) io.err(`  skipped ${bad.file}:${bad.line}: ${bad.reason}`)
  const edit = values.edit
    ? inEditor
    : patch === undefined
      ? undefined
      : (body: string, record: CapturedDelivery) => patchBody(body, patch, record.id)
  const summary = await replayCaptures(records, {
    url: values.url,
    secret,
    dryRun: values['dry-run'],
    includeUnauthenticated: values['include-unauthenticated'],
    edit,
    maxAnswerBytes: ANSWER_CAP_BYTES,
    timeoutMs,
  })

  if (values.json) io.out(JSON.stringify({ ...summary, skipped: records.skipped }))
  else for (const result of summary.results) printResult(result, values['dry-run'] === true, io)
  const counts = Object.entries(summary.statuses).map(([status, n]) => `${status} ×${n}`)
  if (!values.json) {
    io.out(
      values['dry-run']
        ? `Dry run: ${summary.results.filter((result) => result.skipped === undefined).length} deliveries would be sent to ${values.url}.`
        : `Replayed ${summary.sent} deliveries to ${values.url}${counts.length ? `: ${counts.join(', ')}` : ''}.`,
    )
  }
  const strangers = summary.results.filter((result) => result.unauthenticated).length
  if (!values.json && strangers > 0) {
    io.out(
      values['include-unauthenticated']
        ? values['dry-run']
          ? `${strangers} of them were not authenticated when they arrived (marked ⚠): they would be signed and sent.`
          : `Sent ${summary.unauthenticated} delivery(ies) that were not authenticated when they arrived (--include-unauthenticated).`
        : `Not sent: ${strangers} delivery(ies) that were not authenticated when they arrived (--include-unauthenticated sends them).`,
    )
  }
  if (!values.json && records.skipped.length > 0) {
    io.out(`Skipped ${records.skipped.length} line(s) that are not captured deliveries (named above, on stderr).`)
  }
  if (values['dry-run']) return EXIT.ok
  if (summary.results.some((result) => result.error?.startsWith('timed out')))
    io.err(`✘ Gave up on ${values.url}: ${timedOut(timeoutMs)}.`)
  if (summary.statuses.error) return EXIT.unreachable
  const answeredWell = (result: ReplayResult) => result.skipped !== undefined || (result.answer?.status ?? 0) < 300
  return summary.results.every(answeredWell) ? EXIT.ok : EXIT.rejected
}

/** The one place to read from: a capture file's path, or a store. */
function sourceOf(
  values: { redis?: string; stream?: string; postgres?: string; table?: string },
  positionals: string[],
): string | CaptureStore {
  if (values.stream !== undefined && values.redis === undefined)
    throw new UsageError('--stream goes with --redis <url>.')
  if (values.table !== undefined && values.postgres === undefined)
    throw new UsageError('--table goes with --postgres <url>.')
  const given = positionals.length + Number(values.redis !== undefined) + Number(values.postgres !== undefined)
  if (given !== 1) {
    throw new UsageError(
      given === 0
        ? 'Give the captures to replay: a capture file (ringhook replay captures/deliveries.jsonl), --redis <url> or --postgres <url>.'
        : 'Give one source of captures: a capture file, --redis <url> or --postgres <url>, not more.',
    )
  }
  if (values.redis !== undefined) return { kind: 'redis', url: values.redis, stream: values.stream }
  if (values.postgres !== undefined) return { kind: 'postgres', url: values.postgres, table: values.table }
  return positionals[0] as string
}

function filterOf(values: { event?: string; outcome?: string; since?: string; id?: string }): CaptureFilter {
  const list = (text: string | undefined) =>
    text
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
  const outcomes = list(values.outcome)
  for (const outcome of outcomes ?? []) {
    if (!captureOutcomeSchema.safeParse(outcome).success)
      throw new UsageError(`--outcome takes ${captureOutcomeSchema.options.join(', ')}; got "${outcome}".`)
  }
  return {
    ...(values.event ? { event: list(values.event) } : {}),
    ...(outcomes ? { outcome: outcomes as CaptureOutcome[] } : {}),
    ...(values.id ? { id: list(values.id) } : {}),
    ...(values.since ? { since: sinceTime(values.since) } : {}),
  }
}

/** An ISO 8601 time, or minutes or hours ago (`15m`, `2h`). */
function sinceTime(text: string): Date {
  const ago = /^(\d+)([mh])$/.exec(text)
  if (ago) return new Date(Date.now() - Number(ago[1]) * (ago[2] === 'h' ? 3_600_000 : 60_000))
  if (Number.isNaN(Date.parse(text)))
    throw new UsageError('--since takes an ISO 8601 time, or minutes or hours (15m, 2h).')
  return new Date(text)
}

function readText(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as Error).message}`)
  }
}

function patchBody(body: string, patch: unknown, id: string): string {
  try {
    return mergePatch(body, patch)
  } catch (error) {
    // JSON.stringify recurses: a body nested thousands deep parses but cannot be written again.
    if (error instanceof RangeError)
      throw new UsageError(`--patch: the body of ${id} nests too deep to be written again; replay it without --patch.`)
    throw new UsageError(`--patch applies to JSON bodies; the body of ${id} is not JSON.`)
  }
}

/**
 * Opens the user's editor on a payload, pretty-printed when it is JSON; an unchanged file sends the
 * body as captured (its own spacing), a changed one sends what was saved.
 */
function inEditor(body: string, record: CapturedDelivery): string {
  const shown = pretty(body)
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-replay-'))
  const file = join(dir, `${record.id.replace(/[^\w-]/g, '_')}.json`)
  try {
    writeFileSync(file, shown)
    const editor = process.env.VISUAL || process.env.EDITOR || 'vi'
    const ran = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit' })
    if (ran.status !== 0)
      throw new UsageError(`The editor (${editor}) exited with ${ran.status ?? ran.signal}: nothing sent.`)
    const edited = readFileSync(file, 'utf8')
    if (edited === shown) return body
    parseJson(edited, `The edited payload of ${record.id}`)
    return edited.trim()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function pretty(body: string): string {
  try {
    return `${JSON.stringify(JSON.parse(body), null, 2)}\n`
  } catch {
    return body
  }
}

function printResult(result: ReplayResult, dryRun: boolean, io: Io): void {
  const was = `was ${result.original.status}${result.original.code ? ` ${result.original.code}` : ''}`
  const name = `${result.event ?? '(no event)'} ${result.id}`
  if (result.skipped !== undefined) {
    io.out(`- ${name}: not sent, ${result.skipped} (${was})`)
    return
  }
  if (dryRun) {
    io.out(`→ ${result.unauthenticated ? '⚠ unauthenticated ' : ''}${name} (${was})`)
    for (const [header, value] of Object.entries(result.request.headers)) io.out(`  ${header}: ${value}`)
    io.out(`  ${result.request.encoding === 'base64' ? `(base64) ${result.request.body}` : result.request.body}`)
    return
  }
  if (!result.answer) {
    io.out(`✘ ${name}: no answer (${result.error ?? 'unknown'}) (${was})`)
    return
  }
  const mark = result.answer.status < 300 ? '✔' : '✘'
  const duplicate = result.answer.duplicate ? ' duplicate' : ''
  const stranger = result.unauthenticated ? ' (unauthenticated when it arrived)' : ''
  io.out(`${mark} ${name}${stranger}: ${result.answer.status}${duplicate} (${was}) ${result.answer.body}`)
  const redirect = redirectNote(result.answer.status, result.answer.location)
  if (redirect) io.out(`  ${redirect}.`)
  if (result.answer.cut) io.out(`  ${cutNote()}`)
}
