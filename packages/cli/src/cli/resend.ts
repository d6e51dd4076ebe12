import type { Delivery } from '@ringhook/simulator/control-api'
import { type CappedResponse, cutNote, redirectNote, request } from '../answer.js'
import { EXIT, type Io, parseCommand, UsageError } from './io.js'
import { TIMEOUT_FLAG, TIMEOUT_HELP, timeoutFrom } from './timeout.js'

export const resendHelp = `Usage: ringhook resend <delivery_id> [options]
       ringhook resend --failed-since <time> [options]

Asks a running simulator (ringhook simulate) to send one delivery again, or every delivery that
failed at or after a time, as new deliveries with the same payload, newly signed.

Options:
  --failed-since <time>      an ISO 8601 time (2026-01-01T10:00:00Z), or minutes ago (15m)
  --sim <url>                the simulator; default http://127.0.0.1:4010
  --token <token>            its run token; default the RINGHOOK_SIM_TOKEN environment variable
  --json                     print the new deliveries as JSON
${TIMEOUT_HELP}

Exit codes: 0 resent (or nothing to resend), 2 usage error, 3 the simulator did not answer.`

const RESEND_FLAGS = {
  'failed-since': { type: 'string' },
  sim: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  ...TIMEOUT_FLAG,
} as const

export async function resend(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, RESEND_FLAGS, resendHelp, io)
  if (parsed === null) return EXIT.ok
  const { values, positionals } = parsed
  const since = values['failed-since']
  if ((positionals.length === 1) === (since !== undefined))
    throw new UsageError('Give one delivery id, or --failed-since <time>.')
  const timeoutMs = timeoutFrom(values.timeout)
  const token = values.token ?? process.env.RINGHOOK_SIM_TOKEN
  if (!token) throw new UsageError('--token (or RINGHOOK_SIM_TOKEN) is required: the Token line of the banner.')
  const base = (values.sim ?? 'http://127.0.0.1:4010').replace(/\/$/, '')
  const [path, body] =
    since === undefined
      ? [`/_sim/deliveries/${encodeURIComponent(positionals[0] as string)}/resend`, {}]
      : ['/_sim/deliveries/resend', { failed_since: sinceTime(since) }]
  let response: CappedResponse
  try {
    response = await request(
      `${base}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ringhook-sim-token': token },
        body: JSON.stringify(body),
      },
      timeoutMs,
    )
  } catch (error) {
    io.err(`✘ No simulator answers at ${base}: ${(error as Error).message}`)
    return EXIT.unreachable
  }
  const answer = parseAnswer(response.text)
  if (!response.ok || !answer?.deliveries) {
    const why = answer?.error?.message ?? redirectNote(response.status, response.headers.get('location'))
    const cut = response.cut ? ` ${cutNote()}` : ''
    throw new UsageError(`${response.status} ${answer?.error?.code ?? ''}: ${why ?? 'refused'}${cut}`)
  }
  if (values.json) io.out(JSON.stringify(answer.deliveries))
  else if (answer.deliveries.length === 0) io.out('Nothing to resend.')
  else for (const d of answer.deliveries) io.out(`✔ ${d.event} ${d.resend_of} resent as ${d.id}`)
  return EXIT.ok
}

type ResendAnswer = { deliveries?: Delivery[]; error?: { code: string; message: string } }

/** The simulator's JSON answer; null for anything else (cut, or not the simulator answering). */
function parseAnswer(text: string): ResendAnswer | null {
  try {
    const answer: unknown = JSON.parse(text)
    return typeof answer === 'object' && answer !== null ? (answer as ResendAnswer) : null
  } catch {
    return null
  }
}

function sinceTime(text: string): string {
  const minutes = /^(\d+)m$/.exec(text)
  if (minutes) return new Date(Date.now() - Number(minutes[1]) * 60_000).toISOString()
  if (Number.isNaN(Date.parse(text))) throw new UsageError('--failed-since takes an ISO 8601 time or minutes (15m).')
  return new Date(text).toISOString()
}
