// The `ringhook` bin: a committed launcher that runs the built CLI, and says to build when it is not.
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../../../test/runtimes/built.js'

const PACKAGE = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

let scratch: string
beforeAll(() => {
  assertBuilt('cli')
  scratch = mkdtempSync(join(tmpdir(), 'ringhook-cli-bin-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the ringhook bin', () => {
  it('runs the built CLI', async () => {
    const { stdout } = await run(process.execPath, [join(PACKAGE, 'bin/ringhook.mjs'), '--help'])
    expect(stdout).toContain('Usage: ringhook <command>')
  })

  it('says to build first when the CLI is not built', async () => {
    // The launcher alone, as a fresh clone has it before `pnpm build`: no dist/ beside bin/.
    const clone = join(scratch, 'unbuilt')
    const launcher = join(clone, 'bin', 'ringhook.mjs')
    mkdirSync(join(clone, 'bin'), { recursive: true })
    copyFileSync(join(PACKAGE, 'bin/ringhook.mjs'), launcher)
    const failed = await run(process.execPath, [launcher, '--help']).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
    expect(failed).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('run `pnpm build`') })
  })
})
