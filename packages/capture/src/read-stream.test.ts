// A capture file past what one string holds (512 MiB in V8) is read line by line: here a stream of
// 520 MiB, two records around lines of padding, stands in for the file (no half-GiB file on disk).
import { Readable } from 'node:stream'
import type { CapturedDelivery } from '@ringhook/core/capture'
import { describe, expect, it } from 'vitest'
import { readCaptureStream, type SkippedCaptureLine } from './read.js'

const record = (id: string) =>
  JSON.stringify({
    v: 1,
    id,
    receivedAt: '2027-01-15T08:00:00.000Z',
    event: 'gesture',
    request: { method: 'POST', headers: {}, body: '{}', encoding: 'utf8', bytes: 2 },
    answer: { status: 200, headers: {}, body: '{"ok":true}' },
    outcome: 'accepted',
    authentic: true,
  })

const MiB = 1024 * 1024

describe('a capture file over 512 MiB', () => {
  it('is read line by line: every record found, never one string of it', async () => {
    const padding = `${' '.repeat(MiB - 1)}\n`
    async function* file() {
      yield `${record('first')}\n`
      for (let i = 0; i < 520; i++) yield padding
      yield `${record('last')}\nnot a record\n`
    }
    const records: CapturedDelivery[] = []
    const skipped: SkippedCaptureLine[] = []
    await readCaptureStream(Readable.from(file(), { objectMode: false }), 'huge.jsonl', {}, records, skipped)
    expect(records.map((r) => r.id)).toEqual(['first', 'last'])
    expect(skipped).toEqual([{ file: 'huge.jsonl', line: 523, reason: 'not JSON' }])
  }, 60_000)
})
