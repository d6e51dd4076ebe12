// What the reliability suites saw, for docs/reliability.md. Tests call `observe` with the result
// they just asserted; when RINGHOOK_OBSERVATIONS names a file (test/reliability/report.ts sets it),
// each observation is appended there as one JSON line. Otherwise observing costs nothing.
import { appendFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { TestContext } from 'vitest'

/** One cell of a results table: `table` and `row` say what was tried, `column` where, `value` what happened. */
export interface Observation {
  table: 'inputs' | 'faults' | 'shutdown' | 'security'
  row: string
  column: string
  value: string
  /** Where the test is declared (file, then index in each enclosing suite), so tables keep source order. */
  file?: string
  position?: number[]
}

interface TaskNode {
  suite?: (TaskNode & { tasks: readonly unknown[] }) | undefined
}

/** The test's index in its suite, in that suite's parent, and so on up to the file. */
function positionOf(task: TaskNode): number[] {
  const path: number[] = []
  for (let node = task; node.suite; node = node.suite) path.unshift(node.suite.tasks.indexOf(node))
  return path
}

/** Records what the test `task` observed (tests run concurrently: the task says where it sits). */
export function observe(observation: Observation, task: TestContext['task']): void {
  const out = process.env.RINGHOOK_OBSERVATIONS
  if (!out) return
  const located = { ...observation, file: basename(task.file.name), position: positionOf(task) }
  appendFileSync(out, `${JSON.stringify(located)}\n`)
}

/** A status histogram as text: `401 ×12, 413 ×3`. */
export function histogram(statuses: Iterable<number>): string {
  const counts = new Map<number, number>()
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ')
}
