import { EXIT, type Io } from './io.js'
import { isMissing, missingPeer } from './optional.js'

const PACKAGE = '@ringhook/bullmq'

/**
 * `ringhook jobs ...`: the failed-job commands, kept once in `@ringhook/bullmq` (`runJobsCli`), an
 * optional peer that only apps using the queue install. Loaded when this command runs, so the CLI
 * starts without it (and without bullmq and ioredis).
 */
export async function jobs(args: string[], io: Io): Promise<number> {
  let bullmq: typeof import('@ringhook/bullmq')
  try {
    bullmq = await import('@ringhook/bullmq')
  } catch (error) {
    if (!isMissing(error, PACKAGE)) throw error
    io.err(`✘ ${missingPeer('jobs', PACKAGE, [PACKAGE])}`)
    return EXIT.usage
  }
  // Its writers end lines themselves; ours add one.
  const line = (write: (text: string) => void) => (text: string) => write(text.replace(/\n$/, ''))
  return bullmq.runJobsCli(args, { stdout: line(io.out), stderr: line(io.err), env: process.env })
}
