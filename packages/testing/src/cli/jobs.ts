import { EXIT, type Io } from './io.js'

/**
 * `ringhook jobs ...`: the failed-job commands of `@ringhook/bullmq`, an optional peer that only apps
 * using the queue install. Loaded on demand, so the CLI starts without it.
 */
export async function jobs(args: string[], io: Io): Promise<number> {
  let bullmq: typeof import('@ringhook/bullmq')
  try {
    bullmq = await import('@ringhook/bullmq')
  } catch {
    io.err('✘ "ringhook jobs" needs @ringhook/bullmq: npm install @ringhook/bullmq')
    return EXIT.usage
  }
  // Its writers end lines themselves; ours add one.
  const line = (write: (text: string) => void) => (text: string) => write(text.replace(/\n$/, ''))
  return bullmq.runJobsCli(args, { stdout: line(io.out), stderr: line(io.err), env: process.env })
}
