import { readFileSync } from 'node:fs'
import { capturedDeliverySchema } from '@ringhook/core/capture'
import type { Simulator } from '@ringhook/simulator'
import type { LoadCapturesResult } from '@ringhook/simulator/control-api'
import { request } from '../answer.js'
import { type Io, UsageError } from './io.js'
import { timeoutFrom } from './timeout.js'

/** A capture file's text, read before the simulator starts so that a wrong path is a usage error. */
export function readCaptureFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--load: cannot read ${path}: ${(error as Error).message}`)
  }
}

// `POST /_sim/captures` takes 1 MiB a call (LOAD_CAPTURES_BODY_LIMIT in the simulator). A line is
// sent JSON-escaped inside the request; a few hundred bytes are left for the rest of the request.
const CALL_BYTES = 1024 * 1024 - 1024
// Its answer holds each loaded delivery with its payload: about the size of the call, and more room.
const ANSWER_BYTES = 4 * CALL_BYTES

/** A line of the file, and what it costs inside a request. */
interface Line {
  n: number
  text: string
  bytes: number
}

/** A line that is not sent: where, and why. */
interface Skipped {
  line: number
  reason: string
}

/**
 * Hands the captured deliveries to the running simulator through its control API (`POST
 * /_sim/captures`, in calls of up to 1 MiB), to the demo control app when a record's own app is not
 * in the simulator. A line that is not a captured delivery, or too long for one call, is skipped
 * and named; the rest are loaded. Resolves with how many were loaded.
 */
export async function loadCaptures(sim: Simulator, jsonl: string, io: Io): Promise<number> {
  const { lines, skipped } = sortLines(jsonl)
  let loaded = 0
  let skippedBySim = 0
  for (const chunk of chunks(lines)) {
    const response = await request(
      `${sim.url}/_sim/captures`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ringhook-sim-token': sim.token },
        body: JSON.stringify({
          jsonl: chunk.map((line) => `${line.text}\n`).join(''),
          ...(sim.demo ? { app_id: sim.demo.apps.control.app_id } : {}),
        }),
      },
      timeoutFrom(undefined),
      ANSWER_BYTES,
    )
    const answer = parseAnswer(response.text)
    if (!response.ok || !answer?.loaded || !answer.skipped) {
      // One refused call loses its own lines only: the next ones are still sent.
      const range = `lines ${chunk[0]?.n}-${chunk.at(-1)?.n}`
      skipped.push({ line: chunk[0]?.n ?? 0, reason: `${range} refused: ${answer?.error?.message ?? response.status}` })
      continue
    }
    loaded += answer.loaded.length
    skippedBySim += answer.skipped.length
    for (const { capture_id, reason } of answer.skipped) io.out(`  skipped ${capture_id}: ${reason}`)
  }
  for (const { line, reason } of skipped.sort((a, b) => a.line - b.line)) io.out(`  skipped line ${line}: ${reason}`)
  const notLoaded = skippedBySim + skipped.length
  io.out(`Loaded     ${loaded} captured deliveries${notLoaded ? `, ${notLoaded} skipped` : ''}`)
  return loaded
}

/** The file's lines worth sending, and why each of the others is not. */
function sortLines(jsonl: string): { lines: Line[]; skipped: Skipped[] } {
  const lines: Line[] = []
  const skipped: Skipped[] = []
  jsonl.split('\n').forEach((text, index) => {
    if (text.trim() === '') return
    const n = index + 1
    const bytes = Buffer.byteLength(JSON.stringify(`${text}\n`))
    if (bytes > CALL_BYTES) {
      skipped.push({ line: n, reason: `${bytes} bytes once escaped, over the ${CALL_BYTES} a call takes` })
      return
    }
    const reason = notACapture(text)
    if (reason) skipped.push({ line: n, reason })
    else lines.push({ n, text, bytes })
  })
  return { lines, skipped }
}

/** Why a line is not a captured delivery (a write cut midway, another file), or undefined. */
function notACapture(text: string): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'not JSON (a write cut midway?)'
  }
  return capturedDeliverySchema.safeParse(value).success ? undefined : 'not a captured delivery'
}

/** The lines, grouped into calls of at most CALL_BYTES. */
function* chunks(lines: Line[]): Generator<Line[]> {
  let current: Line[] = []
  let size = 0
  for (const line of lines) {
    if (current.length > 0 && size + line.bytes > CALL_BYTES) {
      yield current
      current = []
      size = 0
    }
    current.push(line)
    size += line.bytes
  }
  if (current.length > 0) yield current
}

type LoadAnswer = Partial<LoadCapturesResult> & { error?: { message?: string } }

/** The simulator's JSON answer; null for anything else. */
function parseAnswer(text: string): LoadAnswer | null {
  try {
    const answer: unknown = JSON.parse(text)
    return typeof answer === 'object' && answer !== null ? (answer as LoadAnswer) : null
  } catch {
    return null
  }
}
