import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/** A file of JSON lines rotated by size: `path`, then `path.1` (the most recent) to `path.<maxFiles>`. */
export interface RotatingFile {
  /** Appends whole lines, rotating first when they would take the file past its size. */
  append(lines: readonly Buffer[], bytes: number): Promise<void>
  close(): Promise<void>
}

// Captures hold payloads, answers and headers: only their owner may read them.
const FILE_MODE = 0o600
const FOLDER_MODE = 0o700
const NEWLINE = Buffer.from('\n')

/**
 * Opens `path` lazily and keeps it open between appends (opening it for each batch cost ~40 µs a
 * batch). After a failed append, or when it finds the file ending mid-line (a crash, a full disk),
 * the next append starts on a new line: the cut line stays one bad line, and the records after it
 * stay readable.
 */
export function rotatingFile(path: string, maxFileBytes: number, maxFiles: number): RotatingFile {
  let file: FileHandle | undefined
  let size = 0
  let midLine = false

  async function openFile(): Promise<FileHandle> {
    await mkdir(dirname(path), { recursive: true, mode: FOLDER_MODE })
    const handle = await open(path, 'a+', FILE_MODE)
    size = (await handle.stat()).size
    midLine = size > 0 && !(await endsWithNewline(handle, size))
    return handle
  }

  async function rotate(): Promise<void> {
    await file?.close()
    file = undefined
    await rm(`${path}.${maxFiles}`, { force: true })
    for (let n = maxFiles - 1; n >= 1; n--) await rename(`${path}.${n}`, `${path}.${n + 1}`).catch(ignoreMissing)
    if (maxFiles > 0) await rename(path, `${path}.1`).catch(ignoreMissing)
    else await rm(path, { force: true })
  }

  async function write(lines: readonly Buffer[], bytes: number): Promise<void> {
    file ??= await openFile()
    if (size > 0 && size + bytes > maxFileBytes) {
      await rotate()
      file = await openFile()
    }
    const all = midLine ? [NEWLINE, ...lines] : lines
    const total = midLine ? bytes + 1 : bytes
    // From here until the last byte is written, a failure leaves the file mid-line.
    midLine = true
    const { bytesWritten } = await file.writev(all as Buffer[])
    if (bytesWritten < total) await file.appendFile(Buffer.concat(all, total).subarray(bytesWritten))
    size += total
    midLine = false
  }

  return {
    async append(lines, bytes) {
      try {
        await write(lines, bytes)
      } catch (error) {
        // The handle may be broken: the next append opens the file again and reads how it ends.
        const handle = file
        file = undefined
        await handle?.close().catch(() => undefined)
        throw error
      }
    },
    async close() {
      const handle = file
      file = undefined
      await handle?.close()
    },
  }
}

async function endsWithNewline(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1)
  await handle.read(last, 0, 1, size - 1)
  return last[0] === 0x0a
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
}
