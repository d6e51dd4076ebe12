import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

/**
 * Which CPU the load generator (this process) and the servers run on. Left to the scheduler, the
 * two share both cores and each takes the other's in turns: on a 2-core machine one server's runs
 * then spread over up to 2× (and the same route against itself read 0.83–1.71× in adjacent runs),
 * while pinned apart the same pair read 0.97–1.02×. A server on a core of its own is also what
 * the numbers are for: the load generator stands in for the service, on another machine.
 */
export interface CorePlan {
  /** The load generator's CPU (taskset list syntax). */
  load: string
  /** Every server's CPU. */
  servers: string
  /** Every CPU: where this process goes back to after the HTTP section. */
  all: string
}

/** The plan on Linux with taskset and at least two CPUs; otherwise undefined and nothing is pinned. */
export function planCores(): CorePlan | undefined {
  const cpus = availableParallelism()
  if (process.platform !== 'linux' || cpus < 2 || !hasTaskset()) return undefined
  return { load: '0', servers: '1', all: `0-${cpus - 1}` }
}

const hasTaskset = (): boolean => spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0

/** Moves every thread of a running process to `cpus`. */
export function pinProcess(pid: number, cpus: string): void {
  const done = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' })
  if (done.status !== 0) throw new Error(`taskset could not move process ${pid} to CPU ${cpus}`)
}

/** `fork()` options that start a child on `cpus` from its first instruction, threads included. */
export function forkedOn(cpus: string | undefined): { execPath?: string; execArgv?: string[] } {
  return cpus === undefined ? {} : { execPath: 'taskset', execArgv: ['--cpu-list', cpus, process.execPath] }
}
