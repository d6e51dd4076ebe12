import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { CapturedDelivery, CaptureSink } from '@ringhook/core/capture'

/** Where {@link fileSink} writes, and how much it keeps. */
export interface FileSinkOptions {
  /** The file written to; older ones are `path.1` (the most recent) to `path.N`. Its folder is created. */
  path: string
  /** Size past which the file is rotated, in bytes. Default 64 MiB. */
  maxFileBytes?: number
  /** Rotated files kept besides the current one; older ones are deleted. Default 4. */
  maxFiles?: number
}

/** The default size of a capture file before it is rotated. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024
/** The default number of rotated capture files kept. */
export const DEFAULT_MAX_FILES = 4

/**
 * A capture sink writing one JSON line per delivery, rotated by size: `path` is the newest, `path.1`
 * the one before, up to `path.<maxFiles>`. Appends a batch in one write.
 *
 * @example
 * const capture = createCapture({ sink: fileSink({ path: 'captures/deliveries.jsonl' }) })
 */
export function fileSink(options: FileSinkOptions): CaptureSink {
  const { path } = options
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES
  if (typeof path !== 'string' || path === '') throw new TypeError('fileSink needs a `path`')
  if (!(maxFileBytes > 0)) throw new TypeError(`fileSink maxFileBytes must be positive, got ${String(maxFileBytes)}`)
  if (!(Number.isInteger(maxFiles) && maxFiles >= 0))
    throw new TypeError(`fileSink maxFiles must be a whole number >= 0, got ${String(maxFiles)}`)
  let size: number | undefined

  async function rotate(): Promise<void> {
    await rm(`${path}.${maxFiles}`, { force: true })
    for (let n = maxFiles - 1; n >= 1; n--) await rename(`${path}.${n}`, `${path}.${n + 1}`).catch(ignoreMissing)
    if (maxFiles > 0) await rename(path, `${path}.1`).catch(ignoreMissing)
    else await rm(path, { force: true })
    size = 0
  }

  return {
    async write(records: readonly CapturedDelivery[]) {
      if (size === undefined) {
        await mkdir(dirname(path), { recursive: true })
        size = await stat(path).then(
          (file) => file.size,
          () => 0,
        )
      }
      const text = records.map((record) => `${JSON.stringify(record)}\n`).join('')
      const bytes = Buffer.byteLength(text)
      if (size > 0 && size + bytes > maxFileBytes) await rotate()
      await appendFile(path, text)
      size += bytes
    },
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
}
