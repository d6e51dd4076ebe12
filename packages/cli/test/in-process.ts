import { run } from '../src/cli/run.js'

/** Runs the CLI in-process and captures what it prints, and its exit code. */
export async function inProcess(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await run(args, { out: (t) => void out.push(t), err: (t) => void err.push(t) })
  return { code, stdout: out.join('\n'), stderr: err.join('\n') }
}
