import { sendWebhook } from '@ringhook/testing'
import { ANSWER_CAP_BYTES, redirectNote } from '../answer.js'
import { frameworkError, replyExcerpt } from '../reply-text.js'
import { EXIT, type Io, parseCommand } from './io.js'
import { EVENT_FLAGS_HELP, SIGNED_EVENT_FLAGS, signedEvent } from './signed-event.js'
import { TIMEOUT_FLAG, TIMEOUT_HELP, timedOut, timeoutFrom } from './timeout.js'

export const sendHelp = `Usage: ringhook send <event> [--url <url>] [--secret <secret>] [options]

Sends one signed webhook to your receiver and prints the status, the latency and the reply.
A gesture's reply is checked against the trigger rules, as the service checks it. A redirect is
printed as the answer, with its Location, and not followed; a reply is read up to 64 KiB.

Options:
  --url <url>                your webhook endpoint; default http://localhost:3000/webhooks
  --secret <secret>          the app's webhook secret; default $RING_WEBHOOK_SECRET
  --timestamp <unix s>       sign with this time instead of now
${TIMEOUT_HELP}
  --json                     print the result as JSON
${EVENT_FLAGS_HELP}

Exit codes: 0 acknowledged (2xx, and a valid vibe if any), 1 rejected or invalid vibe reply,
2 usage error, 3 no answer (connection refused or timeout).

Example:
  RING_WEBHOOK_SECRET=whsec_test ringhook send gesture --gesture-type double_tap`

export async function send(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, { ...SIGNED_EVENT_FLAGS, ...TIMEOUT_FLAG }, sendHelp, io)
  if (parsed === null) return EXIT.ok
  const { body, event, signing, url, json } = signedEvent(parsed)
  const timeoutMs = timeoutFrom(parsed.values.timeout)
  let result: Awaited<ReturnType<typeof sendWebhook>>
  try {
    result = await sendWebhook(url, body, {
      ...signing,
      maxAnswerBytes: ANSWER_CAP_BYTES,
      timeoutMs,
    })
  } catch (error) {
    io.err(`✘ No answer from ${url}: ${describe(error, timeoutMs)}`)
    return EXIT.unreachable
  }
  const vibeOk = result.vibe?.kind !== 'invalid'
  if (json) {
    const { status, ok, latencyMs, reply, vibe, explanation, cut, location } = result
    const shown = { event, status, ok, latencyMs, reply: reply ?? result.body, cut, location, vibe, explanation }
    io.out(JSON.stringify(shown, null, 2))
  } else {
    io.out(`→ POST ${url}  ${event ?? 'custom payload'}`)
    io.out(`← ${result.status} in ${result.latencyMs} ms`)
    const redirect = redirectNote(result.status, result.location)
    if (redirect) io.out(`✘ ${redirect}.`)
    if (result.body) io.out(replyExcerpt(result.body, result.cut))
    if (result.explanation) {
      const { code, meaning, fix } = result.explanation
      const framework = frameworkError(result.status, result.body)
      io.out(`✘ Not acknowledged${code ? ` (${code})` : ''}: ${framework ?? meaning}.`)
      if (fix) io.out(`  Fix: ${fix}.`)
    }
    if (result.vibe?.kind === 'vibe')
      io.out(`✔ The vibe reply follows the trigger rules: ${describeVibe(result.vibe.vibe)}`)
    if (result.vibe?.kind === 'invalid') io.out(`✘ The vibe reply breaks the trigger rules: ${result.vibe.rule}`)
    if (result.vibe?.kind === 'none' && result.ok) io.out('✔ Acknowledged; the reply carries no vibe.')
  }
  return result.ok && vibeOk ? EXIT.ok : EXIT.rejected
}

function describeVibe(vibe: { sequence: { type: string }[]; message?: string | undefined }): string {
  const steps = vibe.sequence.map((step) => step.type).join(', ')
  return vibe.message ? `${steps} · "${vibe.message}"` : steps
}

function describe(error: unknown, timeoutMs: number): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause
  if ((error as Error)?.name === 'TimeoutError') return timedOut(timeoutMs)
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)
}
