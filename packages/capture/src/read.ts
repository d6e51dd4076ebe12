import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { describeIssues } from '@ringhook/core/api'
import {
  type CapturedDelivery,
  type CaptureFilter,
  capturedDeliverySchema,
  matchesCapture,
} from '@ringhook/core/capture'

/** A line of a capture file that is not a captured delivery: where, and what is wrong with it. */
export class CaptureFileError extends Error {
  /** Always `'CaptureFileError'`. */
  override readonly name = 'CaptureFileError'
  constructor(
    message: string,
    /** The file (or the name given for the text). */
    readonly file: string,
    /** The line, counted from 1. */
    readonly line: number,
  ) {
    super(message)
  }
}

/**
 * Reads the captured deliveries of a file written by `fileSink`, with its rotated files (`path.N`
 * down to `path.1`, then `path`), oldest first, keeping those that match the filter.
 *
 * @example
 * const failed = await readCaptures('captures/deliveries.jsonl', { outcome: 'failed', since: '2027-01-15T08:00:00Z' })
 */
export async function readCaptures(path: string, filter: CaptureFilter = {}): Promise<CapturedDelivery[]> {
  const records: CapturedDelivery[] = []
  for (const file of await filesOf(path)) {
    const text = await readFile(file, 'utf8')
    for (const record of parseCaptures(text, file)) if (matchesCapture(record, filter)) records.push(record)
  }
  return records
}

/** The file and its rotated siblings, oldest first; throws when none exists. */
async function filesOf(path: string): Promise<string[]> {
  const name = basename(path)
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)$`)
  const entries = await readdir(dirname(path)).catch(() => [] as string[])
  const rotated = entries
    .map((entry) => ({ entry, n: Number(pattern.exec(entry)?.[1] ?? Number.NaN) }))
    .filter(({ n }) => Number.isInteger(n))
    .sort((a, b) => b.n - a.n)
    .map(({ entry }) => join(dirname(path), entry))
  const files = entries.includes(name) ? [...rotated, path] : rotated
  if (files.length === 0) throw new CaptureFileError(`No capture file at ${path}`, path, 0)
  return files
}

/**
 * Parses JSON Lines of captured deliveries (blank lines skipped). Throws {@link CaptureFileError}
 * naming the first line that is not one.
 */
export function parseCaptures(text: string, file = '(text)'): CapturedDelivery[] {
  const records: CapturedDelivery[] = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim()
    if (line === '') continue
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      throw new CaptureFileError(`${file}:${index + 1} is not JSON`, file, index + 1)
    }
    const parsed = capturedDeliverySchema.safeParse(json)
    if (!parsed.success) {
      const issues = describeIssues(parsed.error, '(record)')
      throw new CaptureFileError(`${file}:${index + 1} is not a captured delivery: ${issues}`, file, index + 1)
    }
    records.push(parsed.data)
  }
  return records
}
