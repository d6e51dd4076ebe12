import { createSimulator, FAULT_PROFILES, type Simulator } from '@ringhook/simulator'
import type { FaultProfile } from '@ringhook/simulator/control-api'
import { formatEntry } from './format.js'
import { EXIT, type Io, parseCommand, parseNumber, UsageError } from './io.js'
import { loadPage, type Page } from './page.js'
import { loadCaptures, readCaptureFile } from './sim-captures.js'

export const simulateHelp = `Usage: ringhook simulate [options]

Runs the whole service on localhost with demo data and prints a live log. Your app calls the
API with the demo key; the simulator delivers signed webhooks to --webhook-url; you play the
users through the control API (/_sim/, see CONTROL-API.md in @ringhook/simulator) or the page.

The control API answers no other web page, and its POST and PATCH calls need the token the
banner prints, in the x-ringhook-sim-token header. It is new every run unless the environment
variable RINGHOOK_SIM_TOKEN sets it (16 or more of A-Z a-z 0-9 . _ ~ -), for scripts.

Options:
  --port <n>                 default 4010 (0 picks a free port)
  --host <host>              default 127.0.0.1
  --allowed-hosts <a,b>      host names it answers to beside IP addresses, localhost and --host
  --webhook-url <url>        your receiver, for both demo apps
  --secret <secret>          the webhook secret of both demo apps (generated and printed if omitted)
  --time-scale <n>           multiply every wait (retries, 30 s limit, await timeouts); default 1
  --gesture-types <a,b>      gesture types beside tap, double_tap, long_press, swipe_up, swipe_down
  --faults <profile>         inject faults into deliveries: ${Object.keys(FAULT_PROFILES).join(', ')}
  --load <capture.jsonl>     once started, deliver the captured deliveries of a file (from fileSink in
                             @ringhook/capture) to --webhook-url, with the faults and retries above
  --json                     print log entries as JSON lines
  --no-ui                    do not serve the web page at / (from @ringhook/simulator-ui, if installed)

Stop with Ctrl-C. Exit codes: 0 stopped, 2 usage error, 3 could not start (port in use).`

const SIMULATE_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'webhook-url': { type: 'string' },
  secret: { type: 'string' },
  'time-scale': { type: 'string' },
  'gesture-types': { type: 'string' },
  faults: { type: 'string' },
  load: { type: 'string' },
  json: { type: 'boolean' },
  'no-ui': { type: 'boolean' },
} as const

export interface SimulateHooks {
  /** Resolves when the simulator should stop; default: SIGINT or SIGTERM. */
  stopped?: Promise<unknown>
  /** Loads the page; default: `loadPage()`, from @ringhook/simulator-ui. */
  loadPage?: () => Promise<Page>
}

export async function simulate(args: string[], io: Io, hooks: SimulateHooks = {}): Promise<number> {
  const parsed = parseCommand(args, SIMULATE_FLAGS, simulateHelp, io)
  if (parsed === null) return EXIT.ok
  const { values, positionals } = parsed
  if (positionals.length > 0) throw new UsageError(`Unexpected arguments: ${positionals.join(' ')}`)
  const webhookUrl = values['webhook-url']
  if (webhookUrl !== undefined && !/^https?:\/\//.test(webhookUrl))
    throw new UsageError('--webhook-url must be an http(s) URL.')
  if (values.secret !== undefined && values.secret.length < 8)
    throw new UsageError('--secret must be at least 8 characters.')
  const profile = values.faults
  if (profile !== undefined && !Object.hasOwn(FAULT_PROFILES, profile))
    throw new UsageError(`--faults takes one of: ${Object.keys(FAULT_PROFILES).join(', ')}.`)
  const timeScale = parseNumber(values['time-scale'], '--time-scale')
  if (timeScale === 0) throw new UsageError('--time-scale must be greater than 0.')
  const captures = values.load === undefined ? undefined : readCaptureFile(values.load)
  const page = values['no-ui'] ? undefined : await (hooks.loadPage ?? loadPage)()
  const envToken = process.env.RINGHOOK_SIM_TOKEN
  let sim: Simulator
  try {
    sim = await createSimulator({
      port: parseNumber(values.port, '--port') ?? 4010,
      host: values.host ?? '127.0.0.1',
      ...(values['allowed-hosts'] ? { allowedHosts: list(values['allowed-hosts']) } : {}),
      ...(envToken ? { token: envToken } : {}),
      ...(timeScale === undefined ? {} : { timeScale }),
      ...(values['gesture-types'] ? { gestureTypes: list(values['gesture-types']) } : {}),
      ...(profile ? { faults: { profile: profile as FaultProfile } } : {}),
      seed: { ...(webhookUrl ? { webhookUrl } : {}), ...(values.secret ? { secret: values.secret } : {}) },
      ...(page ? { handler: page.handler } : {}),
    })
  } catch (error) {
    const code = (error as { code?: string }).code
    io.err(
      code === 'EADDRINUSE' ? `✘ Port ${values.port ?? 4010} is in use: pass --port.` : `✘ ${(error as Error).message}`,
    )
    return EXIT.unreachable
  }
  banner(sim, io, { webhookUrl, secretGiven: values.secret !== undefined, tokenGiven: Boolean(envToken), page })
  if (profile)
    io.out(`Faults     ${profile}: every injected fault is logged as FAULT (seed ${sim.faults.get().seed})\n`)
  sim.on('entry', (entry) => {
    const text = values.json ? JSON.stringify(entry) : formatEntry(entry)
    if (text !== null) io.out(text)
  })
  if (captures !== undefined) await loadCaptures(sim, captures, io)
  await (hooks.stopped ?? signal())
  await sim.close()
  io.err('Simulator stopped.')
  return EXIT.ok
}

const list = (text: string) => text.split(',').map((item) => item.trim())

function signal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}

function banner(
  sim: Simulator,
  io: Io,
  options: { webhookUrl: string | undefined; secretGiven: boolean; tokenGiven: boolean; page: Page | undefined },
) {
  const demo = sim.demo
  if (!demo) return
  const { control, notifications } = demo.apps
  // The simulator's own demo secret is printed only when it was generated: otherwise it is yours.
  const secret = options.secretGiven ? '(the --secret you gave)' : control.secret
  const webhooks = options.webhookUrl
    ? `${options.webhookUrl}, signed with ${secret}`
    : 'none: pass --webhook-url to receive them (deliveries are logged as skipped)'
  // A token from the environment is the user's, like a --secret: the lines below refer to it.
  const token = options.tokenGiven ? '$RINGHOOK_SIM_TOKEN' : sim.token
  const gesture = `curl -s -X POST ${sim.url}/_sim/installs/${demo.installs.ada.user_app_id}/gesture -H "x-ringhook-sim-token: ${token}" -d '{"gesture_type":"double_tap"}'`
  const page = !options.page
    ? ''
    : options.page.problem === null
      ? `\n  Page       ${sim.url}/ (a virtual ring and companion app per user)`
      : `\n  Page       none: ${options.page.problem}`
  io.out(`ringhook simulator on ${sim.url}
${page}
  API        ${sim.apiUrl} (also without /v1)
  API key    ${demo.key.token} (linked to Ada, so @me works)
  Client     RING_BASE_URL=${sim.url} RING_API_KEY=${demo.key.token}
  Apps       ${control.app_id} (control), ${notifications.app_id} (preferred_notification)
  Webhooks   ${webhooks}
  Users      Ada active, Grace passive, Linus inactive, Margaret active with her ring off;
             on ${notifications.app_id}: Ada active, Grace without a priority slot
  Control    ${sim.url}/_sim/state, live events at ${sim.url}/_sim/events
  Token      ${options.tokenGiven ? 'the RINGHOOK_SIM_TOKEN you set' : sim.token} (header x-ringhook-sim-token: POST and PATCH under /_sim/ need it)

Try:
  ${gesture}
  curl -s ${sim.apiUrl}/apps/${control.app_id}/users -H 'authorization: Bearer ${demo.key.token}'

Press Ctrl-C to stop.
`)
}
