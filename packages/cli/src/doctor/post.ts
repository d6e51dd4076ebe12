import { request } from '../answer.js'

/** What came back from one probe: an answer, or the reason none arrived. */
export type ProbeResult =
  | { kind: 'answer'; status: number; body: string; headers: Headers; ms: number; cut: boolean }
  | { kind: 'no_answer'; reason: NoAnswerReason; detail: string }

export type NoAnswerReason = 'refused' | 'dns' | 'tls' | 'timeout' | 'reset' | 'other'

/**
 * POSTs one body to `url` only (a redirect is the answer) and reads the answer, up to the CLI's cap,
 * within `timeoutMs`; never throws.
 */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ProbeResult> {
  const started = performance.now()
  try {
    const answer = await request(url, { method: 'POST', headers, body }, timeoutMs)
    const { status, text, headers: answerHeaders, cut } = answer
    return { kind: 'answer', status, body: text, headers: answerHeaders, ms: since(started), cut }
  } catch (error) {
    return { kind: 'no_answer', ...classify(error) }
  }
}

const since = (started: number): number => Math.round(performance.now() - started)

const TLS_CODE = /^(CERT_|ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER))/

/** Sorts a fetch failure by what the user must look at. */
function classify(error: unknown): { reason: NoAnswerReason; detail: string } {
  const name = (error as Error | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError') return { reason: 'timeout', detail: (error as Error).message }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  const code = typeof cause?.code === 'string' ? cause.code : ''
  const detail = [code, typeof cause?.message === 'string' ? cause.message : String(error)].filter(Boolean).join(': ')
  if (code === 'ECONNREFUSED') return { reason: 'refused', detail }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { reason: 'dns', detail }
  if (TLS_CODE.test(code) || /certificate|SSL|TLS/i.test(detail)) return { reason: 'tls', detail }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return { reason: 'reset', detail }
  return { reason: 'other', detail }
}
