import { spawnSync } from 'node:child_process'
import type { CorePlan } from './cores.js'

/**
 * V8 flags every server starts with: the seeds of its string hashing and of its own randomness
 * (which also places its heap), the same in every process.
 *
 * Why: processes of the same route, side by side in one run, did not serve alike. Four of
 * `fastify:hand` read 1.08–1.18× fastest over slowest (nine runs); with these seeds and the address
 * space not randomised (below), 1.02–1.05× (four runs). The seeds alone, randomisation left on, read
 * 1.04–1.05× (three runs); no randomisation alone, 1.05× and 1.13× (two). Two processes against each
 * other gain less: the route against itself read 0.958–1.034× in thirteen runs launched this way
 * (0.993–1.011× in the six of a quiet hour) against 0.970–1.048× in thirteen before, and three plain
 * launches interleaved with three of these read 0.986–1.032× and 0.974–0.999×. What remains between
 * two processes is mostly the machine's spells, which vary by the hour (steady.ts).
 *
 * What this does not do: make a server's speed independent of where its objects happen to land.
 * Each server gets one fixed placement, the same from run to run. ringhook on Fastify read 0.92–0.98×
 * its route with seeds 1, 2 and 7 alike (eight runs, before its plugin read bodies in Fastify's parser),
 * so the reading does not hinge on the seed.
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--hash-seed=1', '--random-seed=1']

export interface Launch {
  execPath?: string
  execArgv: string[]
}

/**
 * `fork()` options for a server: on the servers' CPU from its first instruction, threads included
 * (taskset), with its address space not randomised (setarch -R, where util-linux has it) and
 * SERVER_V8_FLAGS. `hasSetarch` is looked up once per run by the caller.
 */
export function serverLaunch(plan: CorePlan | undefined, hasSetarch: boolean): Launch {
  const wrapper = [...(hasSetarch ? ['setarch', '-R'] : []), ...(plan ? ['taskset', '--cpu-list', plan.servers] : [])]
  const [command, ...args] = wrapper
  if (command === undefined) return { execArgv: [...SERVER_V8_FLAGS] }
  return { execPath: command, execArgv: [...args, process.execPath, ...SERVER_V8_FLAGS] }
}

/** Whether `setarch -R` can start a process here (Linux with util-linux). */
export function setarchWorks(): boolean {
  return process.platform === 'linux' && spawnSync('setarch', ['-R', 'true'], { stdio: 'ignore' }).status === 0
}
