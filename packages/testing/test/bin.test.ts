// The deprecated `ringhook` bin of this package: it says where the CLI went, then runs it by its
// scoped name through npx with the same arguments, and exits as the CLI did. A stand-in `npx` on
// PATH records what it was asked to run, so no registry is reached.
import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = fileURLToPath(new URL('../bin/ringhook.mjs', import.meta.url))

let scratch: string
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ringhook-testing-bin-'))
  const npx = join(scratch, 'npx')
  writeFileSync(npx, '#!/bin/sh\necho "npx $*"\nexit 7\n')
  chmodSync(npx, 0o755)
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the deprecated ringhook bin of @ringhook/testing', () => {
  it('notes the move on stderr and forwards every argument to npx @ringhook/cli', async () => {
    const env = { ...process.env, PATH: `${scratch}${delimiter}${process.env.PATH ?? ''}` }
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [BIN, 'doctor', '--url', 'http://127.0.0.1:1/x'], { env })
      let stdout = ''
      let stderr = ''
      child.stdout?.on('data', (chunk) => (stdout += chunk))
      child.stderr?.on('data', (chunk) => (stderr += chunk))
      child.once('exit', (code) => resolve({ code, stdout, stderr }))
    })
    expect(result.stderr).toContain('the CLI moved to @ringhook/cli: run `npx @ringhook/cli <command>`')
    expect(result.stderr).toContain('deprecated')
    expect(result.stdout).toBe('npx --yes @ringhook/cli doctor --url http://127.0.0.1:1/x\n')
    expect(result.code).toBe(7)
  })
})
