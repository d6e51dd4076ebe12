import packageJson from '../../package.json' with { type: 'json' }
import { doctor } from './doctor.js'
import { DRIVE_VERBS, type DriveVerb, drive } from './drive.js'
import { EXIT, type Io, UsageError } from './io.js'
import { jobs } from './jobs.js'
import { printable } from './printable.js'
import { replay } from './replay.js'
import { resend } from './resend.js'
import { schema } from './schema.js'
import { send } from './send.js'
import { sign } from './sign.js'
import { type SimulateHooks, simulate } from './simulate.js'

export const mainHelp = `Usage: ringhook <command> [options]

Commands:
  sign       sign a webhook payload; print the headers and a ready curl line
  send       send one signed webhook to your receiver and check the reply
  simulate   run the whole service on localhost, with demo data and a live log
  doctor     probe your running receiver and explain what is misconfigured
  jobs       list, show and replay failed queue jobs (with @ringhook/bullmq installed)
  resend     send a delivery of a running simulator again, or every one that failed since a time
  schema     print the OpenAPI document, a webhook's JSON Schema or the signature test vectors
  replay     send captured deliveries (a file, a Redis stream, a Postgres table) to a receiver, signed again

Drive a running simulator by names ("ringhook users --help" for all):
  users, deliveries                          list users and their apps, the latest deliveries
  install <user> <app>, activate <user>, passive <user>, deactivate <user>, uninstall <user>
  gesture <user> <type>                      the user performs a gesture
  answer <response>                          answer the latest pending notification
  event <user> <event>                       send any event as is (the world does not change)

Run "ringhook <command> --help" for a command's options.
Exit codes: 0 success, 1 rejected by the receiver, 2 usage error, 3 unreachable or could not start.`

/** Runs the CLI with the arguments after the program name; resolves with the exit code. */
export async function run(args: string[], terminal: Io, hooks: SimulateHooks = {}): Promise<number> {
  // Every line of every command passes here: ids, replies and messages from outside included.
  const io: Io = { out: (text) => terminal.out(printable(text)), err: (text) => terminal.err(printable(text)) }
  const [command, ...rest] = args
  try {
    if (DRIVE_VERBS.includes(command as DriveVerb)) return await drive(command as DriveVerb, rest, io)
    switch (command) {
      case 'sign':
        return await sign(rest, io)
      case 'send':
        return await send(rest, io)
      case 'simulate':
        return await simulate(rest, io, hooks)
      case 'doctor':
        return await doctor(rest, io)
      case 'jobs':
        return await jobs(rest, io)
      case 'resend':
        return await resend(rest, io)
      case 'schema':
        return await schema(rest, io)
      case 'replay':
        return await replay(rest, io)
      case '--version':
      case '-v':
        io.out(packageJson.version)
        return EXIT.ok
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(mainHelp)
        return command === undefined ? EXIT.usage : EXIT.ok
      default:
        throw new UsageError(`Unknown command "${command}".`)
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.err(`✘ ${error.message}`)
    io.err(
      `Run "ringhook ${command && ['sign', 'send', 'simulate', 'doctor', 'resend', 'schema', 'replay', ...DRIVE_VERBS].includes(command) ? `${command} ` : ''}--help" for usage.`,
    )
    return EXIT.usage
  }
}
