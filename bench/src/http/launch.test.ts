import { fork } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { planCores } from './cores.js'
import { type Launch, SERVER_V8_FLAGS, serverLaunch, setarchWorks } from './launch.js'

const plan = { load: '0', servers: '1', all: '0-1' }

describe('serverLaunch', () => {
  it('wraps node in setarch -R and taskset, then gives it the fixed V8 seeds', () => {
    expect(serverLaunch(plan, true)).toEqual({
      execPath: 'setarch',
      execArgv: ['-R', 'taskset', '--cpu-list', '1', process.execPath, ...SERVER_V8_FLAGS],
    })
  })

  it('drops the wrappers this machine lacks, never the seeds', () => {
    expect(serverLaunch(plan, false)).toEqual({
      execPath: 'taskset',
      execArgv: ['--cpu-list', '1', process.execPath, ...SERVER_V8_FLAGS],
    })
    expect(serverLaunch(undefined, false)).toEqual({ execArgv: [...SERVER_V8_FLAGS] })
  })
})

// A child that tells where its stack is mapped and V8's first random number: both differ from one
// process to the next unless the launch fixes them.
const probe = join(mkdtempSync(join(tmpdir(), 'ringhook-launch-')), 'probe.cjs')
writeFileSync(
  probe,
  `const maps = process.platform === 'linux' ? require('node:fs').readFileSync('/proc/self/maps', 'utf8') : ''
process.send({ stack: maps.split('\\n').find((line) => line.endsWith('[stack]')) ?? '', random: Math.random() }, () => process.exit(0))`,
)

function placement(launch: Partial<Launch>): Promise<{ stack: string; random: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(probe, [], { ...launch, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    child.once('message', resolve)
    child.once('error', reject)
  })
}

describe('a server started by serverLaunch', () => {
  const launch = serverLaunch(planCores(), setarchWorks())

  it('draws the same random numbers as the last one, where two plain processes do not', async () => {
    const [first, second] = [await placement(launch), await placement(launch)]
    expect(second.random).toBe(first.random)
    const [plainA, plainB] = [await placement({}), await placement({})]
    expect(plainB.random).not.toBe(plainA.random)
  })

  it.runIf(setarchWorks())('maps its stack where the last one did, where two plain processes do not', async () => {
    const [first, second] = [await placement(launch), await placement(launch)]
    expect(first.stack).toMatch(/\[stack\]$/)
    expect(second.stack).toBe(first.stack)
    const [plainA, plainB] = [await placement({}), await placement({})]
    expect(plainB.stack).not.toBe(plainA.stack)
  })
})
