/** What came back from one probe: an answer, or the reason none arrived. */
export type ProbeResult =
  | { kind: 'answer'; status: number; body: string; headers: Headers; ms: number }
  | { kind: 'no_answer'; reason: NoAnswerReason; detail: string }

export type NoAnswerReason = 'refused' | 'dns' | 'tls' | 'timeout' | 'reset' | 'other'

/** POSTs one body and reads the whole answer within `timeoutMs`; never throws. */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ProbeResult> {
  const started = performance.now()
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    return { kind: 'answer', status: response.status, body: text, headers: response.headers, ms: since(started) }
  } catch (error) {
    return { kind: 'no_answer', ...classify(error) }
  }
}

const since = (started: number): number => Math.round(performance.now() - started)

const TLS_CODE = /^(CERT_|ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER))/

/** Sorts a fetch failure by what the user must look at. */
function classify(error: unknown): { reason: NoAnswerReason; detail: string } {
  const name = (error as Error | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError') return { reason: 'timeout', detail: 'no answer in time' }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  const code = typeof cause?.code === 'string' ? cause.code : ''
  const detail = [code, typeof cause?.message === 'string' ? cause.message : String(error)].filter(Boolean).join(': ')
  if (code === 'ECONNREFUSED') return { reason: 'refused', detail }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { reason: 'dns', detail }
  if (TLS_CODE.test(code) || /certificate|SSL|TLS/i.test(detail)) return { reason: 'tls', detail }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return { reason: 'reset', detail }
  return { reason: 'other', detail }
}
