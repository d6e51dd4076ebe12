import { parseArgs } from 'node:util'
import { signWebhook } from '../sign.js'
import { EXIT, HELP_FLAG, type Io, parse, parseNumber, shellQuote, UsageError } from './io.js'
import { buildBody, EVENT_FLAGS, EVENT_FLAGS_HELP } from './payload.js'

export const signHelp = `Usage: ringhook sign <event> --secret <secret> [options]

Signs a webhook body as the service does and prints the headers and a ready curl line.

Options:
  --secret <secret>          the app's webhook secret (required)
  --url <url>                where the curl line posts; default http://localhost:3000/webhooks
  --timestamp <unix s>       sign with this time instead of now (test the 300 s tolerance)
  --json                     print {body, headers, curl} as JSON
${EVENT_FLAGS_HELP}

Example:
  ringhook sign gesture --gesture-type double_tap --secret whsec_test`

export async function sign(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...EVENT_FLAGS,
        secret: { type: 'string' },
        url: { type: 'string' },
        timestamp: { type: 'string' },
        json: { type: 'boolean' },
        ...HELP_FLAG,
      },
    }),
  )
  if (values.help) {
    io.out(signHelp)
    return EXIT.ok
  }
  if (!values.secret) throw new UsageError('--secret is required.')
  if (positionals.length > 1) throw new UsageError(`Unexpected arguments: ${positionals.slice(1).join(' ')}`)
  const { body } = buildBody(values, positionals[0])
  const timestamp = parseNumber(values.timestamp, '--timestamp')
  const signed = await signWebhook({
    secret: values.secret,
    payload: body,
    ...(timestamp === undefined ? {} : { timestamp: Math.floor(timestamp) }),
  })
  const url = values.url ?? 'http://localhost:3000/webhooks'
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
  if (values.json) {
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
