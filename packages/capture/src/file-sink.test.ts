import { appendFile, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CapturedDelivery } from '@ringhook/core/capture'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileSink, unauthenticatedPath } from './file-sink.js'
import { CaptureFileError, parseCaptures, readCaptures } from './read.js'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-capture-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const record = (n: number, overrides: Partial<CapturedDelivery> = {}): CapturedDelivery => ({
  v: 1,
  id: `rec_${n}`,
  receivedAt: new Date(Date.UTC(2027, 0, 15, 8, 0, n)).toISOString(),
  event: 'gesture',
  request: {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"n":${n}}`,
    encoding: 'utf8',
    bytes: 7,
  },
  answer: { status: 200, headers: {}, body: '{"ok":true}' },
  outcome: 'accepted',
  ...overrides,
})

/** How many of this process's open file descriptors point at `path` (Linux's /proc). */
async function openCount(path: string): Promise<number> {
  const fds = await readdir('/proc/self/fd')
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')))
  return targets.filter((target) => target === path).length
}

describe('fileSink', () => {
  it('appends one JSON line per record, creating its folder', async () => {
    const path = join(dir, 'nested', 'deliveries.jsonl')
    const sink = fileSink({ path })
    await sink.write([record(1), record(2)])
    await sink.write([record(3)])
    await sink.close?.()
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(['rec_1', 'rec_2', 'rec_3'])
  })

  it('writes a batch of more lines than one system write takes (IOV_MAX, 1024 on Linux), all in order', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const sink = fileSink({ path })
    const batch = Array.from({ length: 2500 }, (_, n) => record(n, { id: `rec_${n}_${'é'.repeat(n % 7)}` }))
    await sink.write(batch)
    await sink.close?.()
    const text = await readFile(path, 'utf8')
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(batch.map((r) => r.id))
    expect(Buffer.byteLength(text)).toBe(batch.reduce((sum, r) => sum + Buffer.byteLength(`${JSON.stringify(r)}\n`), 0))
  })

  it('writes text beyond ASCII byte for byte, and rotates by bytes, not characters', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const wide = (n: number) =>
      record(n, { request: { ...record(n).request, body: '{"response":"emoji:👍","name":"Zoë"}' } })
    const one = Buffer.byteLength(`${JSON.stringify(wide(0))}\n`)
    // Room for exactly two records a file, counted in bytes (fewer characters than bytes).
    const sink = fileSink({ path, maxFileBytes: one * 2, maxFiles: 5 })
    for (let n = 0; n < 4; n++) await sink.write([wide(n)])
    await sink.close?.()
    expect((await readdir(dir)).sort()).toEqual(['deliveries.jsonl', 'deliveries.jsonl.1'])
    const read = await readCaptures(path)
    expect(read).toEqual([wide(0), wide(1), wide(2), wide(3)])
    expect((await readFile(path)).length).toBe(one * 2)
  })

  it.runIf(process.platform === 'linux')('keeps one file open across batches and closes it on close', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const sink = fileSink({ path })
    for (let n = 0; n < 5; n++) await sink.write([record(n)])
    expect(await openCount(path)).toBe(1)
    await sink.close?.()
    expect(await openCount(path)).toBe(0)
    expect(await readCaptures(path)).toHaveLength(5)
  })

  it('rotates past maxFileBytes, keeps maxFiles, and is read back oldest first', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const one = `${JSON.stringify(record(0))}\n`.length
    // Room for two records a file: each third write rotates; 3 files kept in all.
    const sink = fileSink({ path, maxFileBytes: one * 2 + 1, maxFiles: 2 })
    for (let n = 0; n < 9; n++) await sink.write([record(n)])
    await sink.close?.()
    expect((await readdir(dir)).sort()).toEqual(['deliveries.jsonl', 'deliveries.jsonl.1', 'deliveries.jsonl.2'])
    const ids = (await readCaptures(path)).map((r) => r.id)
    // The oldest rotated files were deleted: the last five remain, in order.
    expect(ids).toEqual(['rec_4', 'rec_5', 'rec_6', 'rec_7', 'rec_8'])
  })

  it('continues a file that already exists, counting its size', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const one = `${JSON.stringify(record(0))}\n`.length
    const first = fileSink({ path })
    await first.write([record(1)])
    await first.close?.()
    const again = fileSink({ path, maxFileBytes: one + 1 })
    await again.write([record(2)])
    await again.close?.()
    expect((await readCaptures(path)).map((r) => r.id)).toEqual(['rec_1', 'rec_2'])
    expect((await readdir(dir)).sort()).toEqual(['deliveries.jsonl', 'deliveries.jsonl.1'])
  })

  it('refuses options that cannot work', () => {
    expect(() => fileSink({ path: '' })).toThrow(/path/)
    expect(() => fileSink({ path: 'x', maxFileBytes: 0 })).toThrow(/maxFileBytes/)
    expect(() => fileSink({ path: 'x', maxFiles: -1 })).toThrow(/maxFiles/)
  })
})

describe('readCaptures', () => {
  it('filters by event, outcome, time and id', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const sink = fileSink({ path })
    await sink.write([
      record(1),
      record(2, { outcome: 'failed', code: 'handler_error' }),
      record(3, { event: 'notification.responded' }),
      record(4, { outcome: 'failed', code: 'handler_error' }),
    ])
    await sink.close?.()
    const ids = async (filter: Parameters<typeof readCaptures>[1]) =>
      (await readCaptures(path, filter)).map((r) => r.id)
    expect(await ids({ outcome: 'failed' })).toEqual(['rec_2', 'rec_4'])
    expect(await ids({ event: 'notification.responded' })).toEqual(['rec_3'])
    expect(await ids({ since: '2027-01-15T08:00:03Z' })).toEqual(['rec_3', 'rec_4'])
    expect(await ids({ until: new Date('2027-01-15T08:00:02Z') })).toEqual(['rec_1'])
    expect(await ids({ id: ['rec_1', 'rec_4'], outcome: ['accepted'] })).toEqual(['rec_1'])
  })

  it('skips a line that is not a captured delivery, names it, and reads the rest', async () => {
    const text = `${JSON.stringify(record(1))}\n\n{"v":1,"id":"x"}\nnope\n${JSON.stringify(record(2))}\n`
    const records = parseCaptures(text, 'f.jsonl')
    expect(records.map((r) => r.id)).toEqual(['rec_1', 'rec_2'])
    expect(records.skipped).toEqual([
      { file: 'f.jsonl', line: 3, reason: expect.stringMatching(/^not a captured delivery: /) },
      { file: 'f.jsonl', line: 4, reason: 'not JSON' },
    ])
    // The list of what was skipped goes with the records, not into their copies or JSON.
    expect(JSON.parse(JSON.stringify(records))).toHaveLength(2)
    await expect(readCaptures(join(dir, 'missing.jsonl'))).rejects.toThrow(CaptureFileError)
    await expect(readCaptures(join(dir, 'missing.jsonl'))).rejects.toThrow(/No capture file/)
  })
})

describe('a cut write', () => {
  it('leaves one bad line: the next write starts on a new line, and every good record is read', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const before = fileSink({ path })
    await before.write([record(1), record(2)])
    await before.close?.()
    // A process stopped mid-write (a crash, a full disk): half a line, no newline.
    const line = JSON.stringify(record(3))
    await appendFile(path, line.slice(0, line.length / 2))
    const after = fileSink({ path })
    await after.write([record(4)])
    await after.write([record(5)])
    await after.close?.()

    const records = await readCaptures(path)
    expect(records.map((r) => r.id)).toEqual(['rec_1', 'rec_2', 'rec_4', 'rec_5'])
    expect(records.skipped).toEqual([{ file: path, line: 3, reason: 'not JSON' }])
  })

  it.runIf(process.platform === 'linux')('after a write that failed, starts the next on a new line', async () => {
    const path = join(dir, 'deliveries.jsonl')
    // A full disk: every write to /dev/full fails with ENOSPC.
    await symlink('/dev/full', path)
    const sink = fileSink({ path })
    await expect(sink.write([record(1)])).rejects.toThrow(/ENOSPC/)
    // What that failed write left: the file, ending in the middle of its line.
    await rm(path)
    await writeFile(path, JSON.stringify(record(1)).slice(0, 40))
    await sink.write([record(2)])
    await sink.write([record(3)])
    await sink.close?.()
    const records = await readCaptures(path)
    expect(records.map((r) => r.id)).toEqual(['rec_2', 'rec_3'])
    expect(records.skipped).toEqual([{ file: path, line: 1, reason: 'not JSON' }])
  })
})

describe('file modes', () => {
  it.runIf(process.platform !== 'win32')(
    'creates the files and their folder readable by their owner only',
    async () => {
      const path = join(dir, 'captures', 'deliveries.jsonl')
      const sink = fileSink({ path, maxFileBytes: 1 })
      await sink.write([record(1)])
      await sink.write([record(2)]) // rotates: deliveries.jsonl.1
      await sink.write([record(3, { authentic: false, outcome: 'refused', code: 'unauthorized' })])
      await sink.close?.()
      const mode = async (p: string) => (await stat(p)).mode & 0o777
      expect(await mode(join(dir, 'captures'))).toBe(0o700)
      expect((await readdir(join(dir, 'captures'))).sort()).toEqual([
        'deliveries.jsonl',
        'deliveries.jsonl.1',
        'deliveries.unauthenticated.jsonl',
      ])
      for (const name of await readdir(join(dir, 'captures')))
        expect(await mode(join(dir, 'captures', name))).toBe(0o600)
    },
  )
})

describe('unauthenticated records', () => {
  const forged = (n: number) =>
    record(n, { id: `forged_${n}`, authentic: false, outcome: 'refused', code: 'unauthorized', event: undefined })

  it('go to a file of their own, rotated apart: however many come, authentic ones stay', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const one = Buffer.byteLength(`${JSON.stringify(forged(10))}\n`)
    // Room for two forgeries a file, one rotated file kept: all but the last four are deleted.
    const sink = fileSink({ path, maxFileBytes: 1024 * 1024, unauthenticated: { maxFileBytes: one * 2, maxFiles: 1 } })
    await sink.write([record(0)])
    for (let n = 10; n <= 50; n++) await sink.write([forged(n)])
    await sink.write([record(51), forged(52)])
    await sink.close?.()
    expect(unauthenticatedPath(path)).toBe(join(dir, 'deliveries.unauthenticated.jsonl'))
    expect((await readdir(dir)).sort()).toEqual([
      'deliveries.jsonl',
      'deliveries.unauthenticated.jsonl',
      'deliveries.unauthenticated.jsonl.1',
    ])
    // Read together, by arrival: the authentic ones, and the forgeries the small file kept.
    const ids = (await readCaptures(path)).map((r) => r.id)
    expect(ids).toEqual(['rec_0', 'forged_48', 'forged_49', 'forged_50', 'rec_51', 'forged_52'])
    expect((await readCaptures(path, { outcome: 'accepted' })).map((r) => r.id)).toEqual(['rec_0', 'rec_51'])
  })

  it('refuses limits that cannot work', () => {
    expect(() => fileSink({ path: 'x', unauthenticated: { maxFileBytes: 0 } })).toThrow(/unauthenticated.maxFileBytes/)
    expect(() => fileSink({ path: 'x', unauthenticated: { maxFiles: 1.5 } })).toThrow(/unauthenticated.maxFiles/)
  })
})
