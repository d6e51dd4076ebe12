import { readFileSync } from 'node:fs'
import type { Simulator } from '@ringhook/simulator'
import type { LoadCapturesResult } from '@ringhook/simulator/control-api'
import { type Io, UsageError } from './io.js'

/** A capture file's text, read before the simulator starts so that a wrong path is a usage error. */
export function readCaptureFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--load: cannot read ${path}: ${(error as Error).message}`)
  }
}

// The control API reads bodies of up to 64 KiB; a request's JSON escapes some characters of a line.
const CHUNK_BYTES = 40 * 1024

/**
 * Hands the captured deliveries to the running simulator through its control API (`POST
 * /_sim/captures`, in calls of a few dozen lines), to the demo control app when a record's own app
 * is not in the simulator. Resolves with how many were loaded.
 */
export async function loadCaptures(sim: Simulator, jsonl: string, io: Io): Promise<number> {
  let loaded = 0
  let skipped = 0
  for (const chunk of chunks(jsonl)) {
    const response = await fetch(`${sim.url}/_sim/captures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ringhook-sim-token': sim.token },
      body: JSON.stringify({ jsonl: chunk, ...(sim.demo ? { app_id: sim.demo.apps.control.app_id } : {}) }),
    })
    const answer = (await response.json()) as LoadCapturesResult & { error?: { message: string } }
    if (!response.ok) {
      io.err(`✘ --load: ${answer.error?.message ?? response.status}`)
      break
    }
    loaded += answer.loaded.length
    skipped += answer.skipped.length
    for (const { capture_id, reason } of answer.skipped) io.out(`  skipped ${capture_id}: ${reason}`)
  }
  io.out(`Loaded     ${loaded} captured deliveries${skipped ? `, ${skipped} skipped` : ''}`)
  return loaded
}

/** The file's lines, grouped into pieces of at most CHUNK_BYTES (a longer line goes alone). */
function* chunks(jsonl: string): Generator<string> {
  let current = ''
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue
    if (current !== '' && current.length + line.length > CHUNK_BYTES) {
      yield current
      current = ''
    }
    current += `${line}\n`
  }
  if (current !== '') yield current
}
