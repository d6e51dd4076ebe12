import { readAnswer } from '@ringhook/core/internal'
import { NoAnswerInTime } from './cli/timeout.js'

/**
 * The most of any answer a command reads: a receiver's or the simulator's answer is a few KiB at
 * most, and whatever answers in their place (a proxy, a stranger's host) must not make the CLI hold
 * a huge or endless body in memory.
 */
export const ANSWER_CAP_BYTES = 64 * 1024

/** An answer read up to {@link ANSWER_CAP_BYTES}, a redirect included. */
export interface CappedResponse {
  status: number
  ok: boolean
  headers: Headers
  /** The body, or its first bytes when `cut`. */
  text: string
  cut: boolean
}

/**
 * Sends one request to `url` only: a redirect is the answer, never followed (a signed delivery or a
 * control token must not reach another host), and the body is read up to `capBytes`. Gives up after
 * `timeoutMs`, answer read included, with a {@link NoAnswerInTime} that names the timeout.
 */
export async function request(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  capBytes = ANSWER_CAP_BYTES,
): Promise<CappedResponse> {
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal })
    const { text, cut } = await readAnswer(response, capBytes)
    return { status: response.status, ok: response.ok, headers: response.headers, text, cut }
  } catch (error) {
    if (signal.aborted) throw new NoAnswerInTime(timeoutMs)
    throw error
  }
}

/** The line that says an answer was cut. */
export function cutNote(): string {
  return `(answer cut at ${ANSWER_CAP_BYTES} bytes: the CLI reads no more of an answer)`
}

/** The line that says a redirect was the answer, and where it pointed. */
export function redirectNote(status: number, location: string | null | undefined): string | undefined {
  if (status < 300 || status >= 400) return undefined
  return `Redirected (${status}) to ${location ?? '(no Location header)'}: not followed; the request goes to the URL given only`
}
