import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

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
  /** Every CPU this process was allowed: where it goes back to after the HTTP section. */
  all: string
}

/**
 * The plan on Linux with taskset and at least two CPUs this process may use (the first two of its
 * affinity list, which a container's cpuset can make other than 0 and 1); otherwise undefined.
 */
export function planCores(): CorePlan | undefined {
  if (process.platform !== 'linux' || !hasTaskset()) return undefined
  const allowed = allowedCpus()
  if (!allowed || allowed.cpus.length < 2) return undefined
  return { load: String(allowed.cpus[0]), servers: String(allowed.cpus[1]), all: allowed.list }
}

/** This process's affinity list, as /proc says it (`0-3,8`), and the CPUs it names. */
function allowedCpus(): { list: string; cpus: number[] } | undefined {
  const status = readFileSync('/proc/self/status', 'utf8')
  const list = /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]
  return list ? { list, cpus: expandCpuList(list) } : undefined
}

/** `0-2,5` → [0, 1, 2, 5]. */
export function expandCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (!range) return []
    const from = Number(range[1])
    const to = Number(range[2] ?? range[1])
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)
  })
}

const hasTaskset = (): boolean => spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0

/** Moves every thread of a running process to `cpus`. */
export function pinProcess(pid: number, cpus: string): void {
  const done = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' })
  if (done.status !== 0) throw new Error(`taskset could not move process ${pid} to CPU ${cpus}`)
}
