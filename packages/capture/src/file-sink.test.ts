import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CapturedDelivery } from '@ringhook/core/capture'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileSink } from './file-sink.js'
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

  it('names the line that is not a captured delivery', async () => {
    const text = `${JSON.stringify(record(1))}\n\n{"v":1,"id":"x"}\n`
    expect(() => parseCaptures(text, 'f.jsonl')).toThrow(CaptureFileError)
    expect(() => parseCaptures(text, 'f.jsonl')).toThrow(/^f\.jsonl:3 is not a captured delivery/)
    expect(() => parseCaptures('nope', 'g.jsonl')).toThrow(/g\.jsonl:1 is not JSON/)
    await expect(readCaptures(join(dir, 'missing.jsonl'))).rejects.toThrow(/No capture file/)
  })
})
