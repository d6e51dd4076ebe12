// The file sink, as the capture sink contract takes it, in a folder of its own deleted at the end.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink, readCaptures } from '@ringhook/capture'
import type { CaptureSinkKind } from '../capture-sink-contract.js'

export const fileCaptures: CaptureSinkKind = {
  name: 'file',
  open: async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ringhook-contract-'))
    let n = 0
    return {
      fresh: async () => {
        const path = join(folder, `captures-${n++}`, 'deliveries.jsonl')
        return {
          sink: fileSink({ path }),
          read: async () => {
            const lines = await readCaptures(path)
            if (lines.skipped.length > 0) throw new Error(`skipped lines: ${JSON.stringify(lines.skipped)}`)
            return [...lines]
          },
        }
      },
      close: () => rm(folder, { recursive: true, force: true }),
    }
  },
}
