import { signEvent } from '@ringhook/testing'
import { EXIT, type Io, parseCommand, shellQuote } from './io.js'
import { EVENT_FLAGS_HELP, SIGNED_EVENT_FLAGS, signedEvent } from './signed-event.js'

export const signHelp = `Usage: ringhook sign <event> [--secret <secret>] [options]

Signs a webhook body as the service does and prints the headers and a ready curl line.

Options:
  --secret <secret>          the app's webhook secret; default $RING_WEBHOOK_SECRET
  --url <url>                where the curl line posts; default http://localhost:3000/webhooks
  --timestamp <unix s>       sign with this time instead of now (test the 300 s tolerance)
  --json                     print {body, headers, curl} as JSON
${EVENT_FLAGS_HELP}

Example:
  ringhook sign gesture --gesture-type double_tap --secret whsec_test`

export async function sign(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(args, SIGNED_EVENT_FLAGS, signHelp, io)
  if (parsed === null) return EXIT.ok
  const { body, signing, url, ...input } = signedEvent(parsed)
  const signed = await signEvent({ ...signing, payload: body })
  const headers = {
    'Content-Type': 'application/json',
    'X-SERVICE-Signature': signed.signature,
    'X-SERVICE-Timestamp': signed.timestamp,
  }
  const curl = [
    `curl -X POST ${shellQuote(url)}`,
    ...Object.entries(headers).map(([name, value]) => `  -H ${shellQuote(`${name}: ${value}`)}`),
    `  --data-raw ${shellQuote(body)}`,
  ].join(' \\\n')
  if (input.json) {
    io.out(JSON.stringify({ body, headers, curl }, null, 2))
    return EXIT.ok
  }
  for (const [name, value] of Object.entries(headers)) io.out(`${name}: ${value}`)
  io.out('')
  io.out(curl)
  io.err(
    `\n# A receiver accepts this signature for 300 s after ${new Date(Number(signed.timestamp) * 1000).toISOString()}.`,
  )
  return EXIT.ok
}
