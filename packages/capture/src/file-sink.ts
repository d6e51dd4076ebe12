import { basename, dirname, extname, join } from 'node:path'
import type { CapturedDelivery, CaptureSink } from '@ringhook/core/capture'
import { rotatingFile } from './rotating-file.js'

/** Where {@link fileSink} writes, and how much it keeps. */
export interface FileSinkOptions {
  /**
   * The file written to; older ones are `path.1` (the most recent) to `path.N`. Its folder is
   * created. Records of unauthenticated deliveries go to a file of their own: {@link unauthenticatedPath}.
   */
  path: string
  /**
   * Size past which the file is rotated, in bytes: before a batch that would pass it. A batch is
   * never split, so a file can pass it by one batch. Default 64 MiB.
   */
  maxFileBytes?: number
  /** Rotated files kept besides the current one; older ones are deleted. Default 4. */
  maxFiles?: number
  /**
   * How much of the unauthenticated deliveries' file is kept (those refused before their signature
   * checked out, which anyone can send): its size and rotated files, apart from the others, so that
   * they never rotate an authenticated delivery's record out. Default 8 MiB and 1.
   */
  unauthenticated?: {
    /** Size past which the unauthenticated deliveries' file is rotated, in bytes. Default 8 MiB. */
    maxFileBytes?: number
    /** Rotated unauthenticated deliveries' files kept. Default 1. */
    maxFiles?: number
  }
}

/** The default size of a capture file before it is rotated. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024
/** The default number of rotated capture files kept. */
export const DEFAULT_MAX_FILES = 4
const DEFAULT_UNAUTHENTICATED_FILE_BYTES = 8 * 1024 * 1024
const DEFAULT_UNAUTHENTICATED_FILES = 1

/**
 * Where {@link fileSink} writes the records of unauthenticated deliveries: beside `path`, with
 * `.unauthenticated` before its extension (`deliveries.jsonl` → `deliveries.unauthenticated.jsonl`).
 */
export function unauthenticatedPath(path: string): string {
  const ext = extname(path)
  return join(dirname(path), `${basename(path, ext)}.unauthenticated${ext}`)
}

/**
 * A capture sink writing one JSON line per delivery, rotated by size: `path` is the newest, `path.1`
 * the one before, up to `path.<maxFiles>`. Records of unauthenticated deliveries (`authentic:
 * false`) go to {@link unauthenticatedPath}, rotated apart. Appends a batch in one write; files and
 * their folder are created readable by their owner only. The file stays open between batches and is
 * closed by `capture.close()`; rotate it with these options, not by moving it from outside (records
 * would go on into the moved file).
 *
 * @example
 * const capture = createCapture({ sink: fileSink({ path: 'captures/deliveries.jsonl' }) })
 */
export function fileSink(options: FileSinkOptions): CaptureSink {
  const { path } = options
  if (typeof path !== 'string' || path === '') throw new TypeError('fileSink needs a `path`')
  const main = rotatingFile(
    path,
    maxFileBytes('maxFileBytes', options.maxFileBytes, DEFAULT_MAX_FILE_BYTES),
    maxFiles('maxFiles', options.maxFiles, DEFAULT_MAX_FILES),
  )
  const strangers = rotatingFile(
    unauthenticatedPath(path),
    maxFileBytes(
      'unauthenticated.maxFileBytes',
      options.unauthenticated?.maxFileBytes,
      DEFAULT_UNAUTHENTICATED_FILE_BYTES,
    ),
    maxFiles('unauthenticated.maxFiles', options.unauthenticated?.maxFiles, DEFAULT_UNAUTHENTICATED_FILES),
  )

  return {
    async write(records: readonly CapturedDelivery[]) {
      // A buffer a line, written together: encoding short lines one by one costs less than joining
      // the batch into one string and encoding that (bench/HISTORY.md, 2026-11-27).
      const authentic = new Lines()
      const unauthenticated = new Lines()
      for (const record of records) (record.authentic === false ? unauthenticated : authentic).add(record)
      if (authentic.bytes > 0) await main.append(authentic.lines, authentic.bytes)
      if (unauthenticated.bytes > 0) await strangers.append(unauthenticated.lines, unauthenticated.bytes)
    },
    async close() {
      await Promise.all([main.close(), strangers.close()])
    },
  }
}

class Lines {
  readonly lines: Buffer[] = []
  bytes = 0
  add(record: CapturedDelivery): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`)
    this.lines.push(line)
    this.bytes += line.length
  }
}

function maxFileBytes(name: string, value: number | undefined, fallback: number): number {
  const bytes = value ?? fallback
  if (!(bytes > 0)) throw new TypeError(`fileSink ${name} must be positive, got ${String(bytes)}`)
  return bytes
}

function maxFiles(name: string, value: number | undefined, fallback: number): number {
  const files = value ?? fallback
  if (!(Number.isInteger(files) && files >= 0))
    throw new TypeError(`fileSink ${name} must be a whole number >= 0, got ${String(files)}`)
  return files
}
