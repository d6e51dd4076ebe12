// The CLI behind the `ringhook` bin (bin/ringhook.mjs): `node dist/cli.js <command>`, or
// `node --import tsx src/cli/main.ts <command>` from the sources.
import { printable } from './printable.js'
import { run } from './run.js'

const io = {
  out: (text: string) => void process.stdout.write(`${text}\n`),
  err: (text: string) => void process.stderr.write(`${text}\n`),
}

try {
  process.exitCode = await run(process.argv.slice(2), io)
} catch (error) {
  io.err(printable(`✘ ringhook failed: ${(error as Error)?.stack ?? error}`))
  process.exitCode = 1
}
