// Plays the script against a fresh stage and prints it as a timeline.
import { captureAppLog, narrateSimulator } from './narrate.js'
import { script } from './script.js'
import { createStage } from './stage.js'
import { Timeline } from './timeline.js'

export interface DemoOptions {
  /** Where the timeline goes. */
  write: (text: string) => void
  color?: boolean
  /** Multiplies the service's waits; default 0.02: the 1 s retry takes 20 ms, the 30 s limit 600 ms. */
  timeScale?: number
  /** How long Ada reads a question before answering, real milliseconds. Default 300. */
  readMs?: number
  /** A step that takes longer fails. Default 5000 ms. */
  stepTimeoutMs?: number
  /** Start the app with another secret than the apps were given (to see the demo fail). */
  appSecret?: string
}

export interface DemoResult {
  ok: boolean
  passed: number
  failed: number
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const timeScale = options.timeScale ?? 0.02
  const timeline = new Timeline({ write: options.write, color: options.color ?? false })
  const stage = await createStage(timeline, {
    timeScale,
    ...(options.appSecret ? { appSecret: options.appSecret } : {}),
  })
  const stopNarrating = narrateSimulator(stage.sim, timeline)
  const restoreLog = captureAppLog(timeline)
  const session = { stage, timeline, readMs: options.readMs ?? 300 }
  try {
    timeline.line('ringhook demo: the node:http example app, and the service simulated in the same process', 'bold')
    timeline.line(`  service  ${stage.sim.apiUrl}   time runs ${Math.round(1 / timeScale)}× faster`)
    timeline.line(`  app      ${stage.appUrl}, behind a gateway at ${stage.gateway.url}`)
    timeline.line('  Ada      a user with a ring; the app\'s API key is linked to her account, so "@me" is Ada')
    for (const [index, step] of script.entries()) {
      timeline.step(index + 1, step.title, step.expects)
      try {
        await withTimeout(step.run(session), options.stepTimeoutMs ?? 5000)
      } catch (error) {
        timeline.check(false, 'the step ran to its end', error instanceof Error ? error.message : String(error))
      }
    }
  } finally {
    restoreLog()
    stopNarrating()
    await stage.close()
  }
  const { passed, failed } = timeline
  const seconds = (timeline.elapsed() / 1000).toFixed(1)
  timeline.line()
  if (failed === 0)
    timeline.line(`✓ all ${passed} checks passed in ${seconds} s: every step behaved as the spec says`, 'green')
  else timeline.line(`✗ ${failed} of ${passed + failed} checks failed (${seconds} s)`, 'red')
  return { ok: failed === 0 && passed > 0, passed, failed }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
