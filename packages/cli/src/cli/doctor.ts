import { formatReport } from '../doctor/format.js'
import { runDoctor } from '../doctor/run-doctor.js'
import { EXIT, type Io, parseCommand, UsageError } from './io.js'
import { secretFrom, urlFrom } from './signed-event.js'
import { TIMEOUT_FLAG, TIMEOUT_HELP, timeoutFrom } from './timeout.js'

export const doctorHelp = `Usage: ringhook doctor [--url <url>] [--secret <secret>] [options]

Sends signed probes to your running receiver, as the service would, and explains what it finds:
connection and TLS problems, a wrong path or a redirect, a wrong or old secret, clock skew, a body
parsed or re-serialised before verification, a gesture reply that breaks the trigger rules, answers
slower than the service's 30 s limit, and forged, unsigned or stale deliveries that are accepted.

The probes are real gestures (gesture_type "ringhook_doctor", a new user_app_id each), so your
gesture handler runs for each one the receiver accepts, and each probe, accepted or refused on
purpose, appears in your app's log.

Options:
  --url <url>                your webhook endpoint; default http://localhost:3000/webhooks
  --secret <secret>          the app's current webhook secret; default $RING_WEBHOOK_SECRET
  --previous-secret <secret> the secret before the last regeneration, to spot a receiver not updated
  --app-id <id>              the app id in the probes (a receiver that picks secrets per app needs it)
${TIMEOUT_HELP}
                             (also the acknowledgement limit the answers are held to)
  --json                     print the findings as JSON

Exit codes: 0 nothing wrong found, 1 a problem found, 2 usage error.

Example:
  ringhook doctor --url https://example.com/webhooks --secret whsec_...
  RING_WEBHOOK_SECRET=whsec_... ringhook doctor      # the app on http://localhost:3000/webhooks`

const FLAGS = {
  url: { type: 'string' },
  secret: { type: 'string' },
  'previous-secret': { type: 'string' },
  'app-id': { type: 'string' },
  ...TIMEOUT_FLAG,
  json: { type: 'boolean' },
} as const

export async function doctor(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, FLAGS, doctorHelp, io)
  if (parsed === null) return EXIT.ok
  const { json } = parsed.values
  if (parsed.positionals.length > 0) throw new UsageError(`Unexpected arguments: ${parsed.positionals.join(' ')}`)
  const url = urlFrom(parsed.values.url)
  const secret = secretFrom(parsed.values.secret)
  const ackLimitMs = timeoutFrom(parsed.values.timeout)
  const report = await runDoctor({
    url,
    secret,
    ...(parsed.values['previous-secret'] ? { previousSecret: parsed.values['previous-secret'] } : {}),
    ...(parsed.values['app-id'] ? { appId: parsed.values['app-id'] } : {}),
    ackLimitMs,
  })
  io.out(json ? JSON.stringify(report, null, 2) : formatReport(report))
  return report.ok ? EXIT.ok : EXIT.rejected
}
