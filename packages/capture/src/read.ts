import { createReadStream } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { describeIssues } from '@ringhook/core/api'
import {
  type CapturedDelivery,
  type CaptureFilter,
  capturedDeliverySchema,
  matchesCapture,
} from '@ringhook/core/capture'
import { unauthenticatedPath } from './file-sink.js'

/** No capture file where one was asked for. */
export class CaptureFileError extends Error {
  /** Always `'CaptureFileError'`. */
  override readonly name = 'CaptureFileError'
  constructor(
    message: string,
    /** The file (or the name given for the text). */
    readonly file: string,
    /** The line, counted from 1; 0 when the file itself is missing. */
    readonly line: number,
  ) {
    super(message)
  }
}

/** A line of a capture file that is not a captured delivery, skipped: where, and why. */
export interface SkippedCaptureLine {
  /** The file (or the name given for the text). */
  file: string
  /** The line, counted from 1. */
  line: number
  /** What is wrong with it: `not JSON`, or the record's first problems. */
  reason: string
}

/**
 * Captured deliveries read from JSON Lines, in order; `skipped` lists the lines that were not one
 * (a line cut by a crash or a full disk, a line edited by hand): each is skipped, the rest read.
 */
export type CaptureLines = CapturedDelivery[] & {
  /** The lines that were not captured deliveries, in the order met. */
  readonly skipped: readonly SkippedCaptureLine[]
}

/**
 * Reads the captured deliveries of a file written by `fileSink`, with its rotated files (`path.N`
 * down to `path.1`, then `path`) and its unauthenticated deliveries' files, by arrival time, keeping
 * those that match the filter. A line that is not a captured delivery is skipped and listed in
 * `skipped`. Throws {@link CaptureFileError} when there is no file at all.
 *
 * @example
 * const failed = await readCaptures('captures/deliveries.jsonl', { outcome: 'failed', since: '2027-01-15T08:00:00Z' })
 * for (const bad of failed.skipped) console.warn(`${bad.file}:${bad.line} skipped: ${bad.reason}`)
 */
export async function readCaptures(path: string, filter: CaptureFilter = {}): Promise<CaptureLines> {
  const authentic = await filesOf(path)
  const strangers = await filesOf(unauthenticatedPath(path))
  if (authentic.length + strangers.length === 0) throw new CaptureFileError(`No capture file at ${path}`, path, 0)
  const skipped: SkippedCaptureLine[] = []
  const read = async (files: string[]) => {
    const records: CapturedDelivery[] = []
    for (const file of files) await readCaptureStream(createReadStream(file), file, filter, records, skipped)
    return records
  }
  return withSkipped(byArrival(await read(authentic), await read(strangers)), skipped)
}

/** The file and its rotated siblings that exist, oldest first. */
async function filesOf(path: string): Promise<string[]> {
  const name = basename(path)
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)$`)
  const entries = await readdir(dirname(path)).catch(() => [] as string[])
  const rotated = entries
    .map((entry) => ({ entry, n: Number(pattern.exec(entry)?.[1] ?? Number.NaN) }))
    .filter(({ n }) => Number.isInteger(n))
    .sort((a, b) => b.n - a.n)
    .map(({ entry }) => join(dirname(path), entry))
  return entries.includes(name) ? [...rotated, path] : rotated
}

/** Two lists in the order written, merged by arrival time; of equal times, the first list's first. */
function byArrival(first: CapturedDelivery[], second: CapturedDelivery[]): CapturedDelivery[] {
  if (second.length === 0) return first
  if (first.length === 0) return second
  const out: CapturedDelivery[] = []
  let i = 0
  let j = 0
  while (i < first.length && j < second.length) {
    const a = first[i] as CapturedDelivery
    const b = second[j] as CapturedDelivery
    if (Date.parse(b.receivedAt) < Date.parse(a.receivedAt)) {
      out.push(b)
      j++
    } else {
      out.push(a)
      i++
    }
  }
  for (; i < first.length; i++) out.push(first[i] as CapturedDelivery)
  for (; j < second.length; j++) out.push(second[j] as CapturedDelivery)
  return out
}

/**
 * Reads JSON Lines of captured deliveries from a stream, line by line, keeping those that match the
 * filter: a file is never held whole (a string holds 512 MiB at most; a capture file may be larger).
 */
export async function readCaptureStream(
  input: Readable,
  file: string,
  filter: CaptureFilter,
  records: CapturedDelivery[],
  skipped: SkippedCaptureLine[],
): Promise<void> {
  input.setEncoding('utf8')
  let n = 0
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    n++
    const line = text.trim()
    if (line === '') continue
    const record = parseLine(line)
    if (typeof record === 'string') skipped.push({ file, line: n, reason: record })
    else if (matchesCapture(record, filter)) records.push(record)
  }
}

/**
 * Parses JSON Lines of captured deliveries (blank lines skipped). A line that is not one is skipped
 * and listed in `skipped`, with its line number and why.
 */
export function parseCaptures(text: string, file = '(text)'): CaptureLines {
  const records: CapturedDelivery[] = []
  const skipped: SkippedCaptureLine[] = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim()
    if (line === '') continue
    const record = parseLine(line)
    if (typeof record === 'string') skipped.push({ file, line: index + 1, reason: record })
    else records.push(record)
  }
  return withSkipped(records, skipped)
}

/** A line's record, or why it is not one. */
function parseLine(line: string): CapturedDelivery | string {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch {
    return 'not JSON'
  }
  const parsed = capturedDeliverySchema.safeParse(json)
  return parsed.success ? parsed.data : `not a captured delivery: ${describeIssues(parsed.error, '(record)')}`
}

/** The records with the skipped lines attached, not enumerable: a copy or JSON of the list leaves them out. */
function withSkipped(records: CapturedDelivery[], skipped: SkippedCaptureLine[]): CaptureLines {
  return Object.defineProperty(records, 'skipped', { value: skipped, enumerable: false }) as CaptureLines
}
