import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { jsonSchemas, openApiDocument, signatureVectors } from '@ringhook/schemas'
import { describe, expect, it } from 'vitest'
import { inProcess } from './in-process.js'

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))

describe('ringhook schema', () => {
  it('prints the OpenAPI document by default, as JSON a tool can read', async () => {
    const { code, stdout } = await inProcess(['schema'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(openApiDocument)
  })

  it('prints a JSON Schema or the test vectors by name, intact (emoji and escapes kept)', async () => {
    const gesture = await inProcess(['schema', 'gesture'])
    expect(JSON.parse(gesture.stdout)).toEqual(jsonSchemas.gesture)
    const vectors = await inProcess(['schema', 'signature-vectors'])
    expect(JSON.parse(vectors.stdout)).toEqual(signatureVectors)
  })

  it('--list names every document with its import path', async () => {
    const { code, stdout } = await inProcess(['schema', '--list'])
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^openapi\s+OpenAPI 3\.1 document\s+\(@ringhook\/schemas\/openapi\.json\)$/)
    expect(lines).toContainEqual(expect.stringMatching(/^notification\.responded .*json-schema\/events\//))
    expect(lines).toHaveLength(Object.keys(jsonSchemas).length + 2)
  })

  it('an unknown name is a usage error (exit 2) that lists the names', async () => {
    const { code, stdout, stderr } = await inProcess(['schema', 'gestur'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain('No document is named "gestur". The names: openapi, webhook-event, gesture')
    expect(stderr).toContain('ringhook schema --help')
    expect((await inProcess(['schema', 'gesture', 'openapi'])).code).toBe(2)
  })

  it('is listed in the main help and runs from the bin', async () => {
    expect((await inProcess(['--help'])).stdout).toMatch(/^ {2}schema {5}print the OpenAPI document/m)
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'schema', 'gesture-reply'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(jsonSchemas['gesture-reply'])
  })
})
