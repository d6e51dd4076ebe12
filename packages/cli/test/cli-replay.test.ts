import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink } from '@ringhook/capture'
import { createReceiver, silentLogger, vibe, withExtras } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holdPort } from '../../../test/support/ports.js'
import { inProcess } from './in-process.js'

const production = 'whsec_cli_production'
const local = 'whsec_cli_local'

const gesture = (user: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: user,
    app_id: 'app_cli_replay',
    timestamp: '2027-01-15T08:00:00.000Z',
    data: {},
    ...extra,
  })

let dir = ''
let file = ''
let server: Server
let url = ''
const handled: string[] = []
const uninstalled: string[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-cli-replay-'))
  file = join(dir, 'deliveries.jsonl')
  // Production: a receiver capturing to a file, fed an accepted gesture, a failing one and a forged body.
  const capture = createCapture({ sink: fileSink({ path: file }), logger: silentLogger })
  const source = createReceiver({ secret: production, logger: silentLogger, capture })
  source.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('handler broke')
    return vibe('tap')
  })
  for (const body of [gesture('u_ok'), gesture('u_fail', { data: { fail: true } })]) {
    const { headers } = await signWebhook({ secret: production, body })
    await source.handle({ method: 'POST', headers, rawBody: body })
  }
  // A C1 CSI, which terminals act on as ESC [ does (C0 controls are captured as base64).
  await source.handle({ method: 'POST', headers: { 'content-type': 'application/json' }, rawBody: '\u009b2J{}' })
  await capture.close()

  // The desk: another receiver, with its own secret.
  const target = createReceiver({ secret: local, logger: silentLogger })
  target.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('still broken')
    handled.push(`${event.user_app_id}:${event.gesture_type}`)
    return vibe('pulse').message(`Got ${event.gesture_type}`)
  })
  target.on('app.uninstalled', (event) => void uninstalled.push(event.user_app_id))
  server = createServer(ringhook(target))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await rm(dir, { recursive: true, force: true })
})

describe('ringhook replay', () => {
  it('prints what a dry run would send, sends nothing, and escapes control characters', async () => {
    const before = handled.length
    const result = await inProcess(['replay', file, '--url', url, '--secret', local, '--dry-run'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('→ gesture')
    expect(result.stdout).toMatch(/x-service-signature: sha256=[0-9a-f]{64}/)
    expect(result.stdout).toMatch(/- \(no event\) \S+: not sent, it was not authenticated .*\(was 401 unauthorized\)/)
    expect(result.stdout).toContain('Dry run: 2 deliveries would be sent')
    expect(result.stdout).toContain('Not sent: 1 delivery(ies) that were not authenticated')
    // Asked for by name, the stranger's request is shown, marked, with its control characters escaped.
    const strangers = await inProcess([
      'replay',
      file,
      '--url',
      url,
      '--secret',
      local,
      '--dry-run',
      '--include-unauthenticated',
    ])
    expect(strangers.stdout).toMatch(/→ ⚠ unauthenticated \(no event\) \S+ \(was 401 unauthorized\)/)
    expect(strangers.stdout).toContain('\\u009b2J{}')
    expect(strangers.stdout).not.toContain('\u009b')
    expect(strangers.stdout).toContain('Dry run: 3 deliveries would be sent')
    expect(handled.length).toBe(before)
  })

  it('sends no forged request unless asked by name, and says how many it sent', async () => {
    // A stranger's uninstall for a victim, refused at the source, in a capture of its own.
    const forgedFile = join(dir, 'forged.jsonl')
    const capture = createCapture({ sink: fileSink({ path: forgedFile }), logger: silentLogger })
    const source = createReceiver({ secret: production, logger: silentLogger, capture })
    source.on('gesture', () => vibe('tap'))
    const forged = JSON.stringify({
      event: 'app.uninstalled',
      user_app_id: 'u_victim',
      app_id: 'app_cli_replay',
      timestamp: '2027-01-15T08:00:02.000Z',
      data: {},
    })
    for (const [body, secret] of [
      [gesture('u_real'), production],
      [forged, 'whsec_stranger'],
      [gesture('u_forged'), 'whsec_stranger'],
    ] as const) {
      const { headers } = await signWebhook({ secret, body })
      await source.handle({ method: 'POST', headers, rawBody: body })
    }
    await capture.close()
    const before = handled.length
    const result = await inProcess(['replay', forgedFile, '--url', url, '--secret', local])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`Replayed 1 deliveries to ${url}: 200 ×1, skipped ×2.`)
    expect(result.stdout).toContain('Not sent: 2 delivery(ies) that were not authenticated when they arrived')
    expect(handled.slice(before)).toEqual(['u_real:tap'])
    expect(uninstalled).toEqual([])
    expect((await inProcess(['replay', '--help'])).stdout).toContain('--include-unauthenticated')

    const asked = await inProcess(['replay', forgedFile, '--url', url, '--secret', local, '--include-unauthenticated'])
    expect(asked.stdout).toContain('Sent 2 delivery(ies) that were not authenticated when they arrived')
    expect(uninstalled).toEqual(['u_victim'])
    expect(handled.slice(before)).toEqual(['u_real:tap', 'u_forged:tap'])
  })

  it('sends the filtered deliveries, signed with the secret from the environment, with a summary', async () => {
    process.env.RING_WEBHOOK_SECRET = local
    try {
      const result = await inProcess([
        'replay',
        file,
        '--url',
        url,
        '--outcome',
        'accepted,failed',
        '--event',
        'gesture',
      ])
      expect(result.code).toBe(1) // the failure fails again
      expect(result.stdout).toMatch(/✔ gesture \S+: 200 \(was 200\)/)
      expect(result.stdout).toMatch(/✘ gesture \S+: 500 \(was 500 handler_error\)/)
      expect(result.stdout).toContain(`Replayed 2 deliveries to ${url}: 200 ×1, 500 ×1.`)
      expect(handled).toContain('u_ok:tap')
      // Again: the target handled it, so it answers as a duplicate.
      const again = await inProcess(['replay', file, '--url', url, '--outcome', 'accepted', '--json'])
      expect(again.code).toBe(0)
      const summary = JSON.parse(again.stdout)
      expect(summary.statuses).toEqual({ '200': 1 })
      expect(summary.results[0].answer.duplicate).toBe(true)
    } finally {
      delete process.env.RING_WEBHOOK_SECRET
    }
  })

  it('changes payloads with a JSON Merge Patch file, or in $EDITOR', async () => {
    const patch = join(dir, 'patch.json')
    await writeFile(patch, JSON.stringify({ user_app_id: 'u_patched', gesture_type: 'double_tap' }))
    const patched = await inProcess([
      'replay',
      file,
      '--url',
      url,
      '--secret',
      local,
      '--outcome',
      'accepted',
      '--patch',
      patch,
    ])
    expect(patched.code).toBe(0)
    expect(patched.stdout).toContain('Got double_tap')
    expect(handled).toContain('u_patched:double_tap')

    const editor = process.env.EDITOR
    process.env.EDITOR = `sed -i -e 's/"u_ok"/"u_edited"/' -e 's/"tap"/"swipe_up"/'`
    try {
      const edited = await inProcess([
        'replay',
        file,
        '--url',
        url,
        '--secret',
        local,
        '--outcome',
        'accepted',
        '--edit',
      ])
      expect(edited.code).toBe(0)
      expect(handled).toContain('u_edited:swipe_up')
    } finally {
      if (editor === undefined) delete process.env.EDITOR
      else process.env.EDITOR = editor
    }
  })

  it('skips a cut line, names it, and sends the records around it', async () => {
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n')
    const cutFile = join(dir, 'cut.jsonl')
    // The second record cut in half, as a crash mid-write leaves it, then the rest of the file.
    await writeFile(cutFile, `${lines[0]}\n${(lines[1] as string).slice(0, 50)}\n${lines.slice(2).join('\n')}\n`)
    const result = await inProcess(['replay', cutFile, '--url', url, '--secret', local, '--dry-run'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain(`skipped ${cutFile}:2: not JSON`)
    expect(result.stdout).toContain(`Dry run: ${lines.length - 1} deliveries would be sent`)
    expect(result.stdout).toContain('Skipped 1 line(s) that are not captured deliveries')
    const json = JSON.parse(
      (await inProcess(['replay', cutFile, '--url', url, '--secret', local, '--dry-run', '--json'])).stdout,
    )
    expect(json.skipped).toEqual([{ file: cutFile, line: 2, reason: 'not JSON' }])
    // Nothing in it is a record: refused, naming the first line.
    await writeFile(cutFile, 'not a capture\n')
    const none = await inProcess(['replay', cutFile, '--url', url, '--secret', local])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`No line is a captured delivery: ${cutFile}:1 is not JSON`)
  })

  it('answers usage errors with exit 2, and an unreachable receiver with exit 3', async () => {
    const base = ['replay', file, '--secret', local]
    expect((await inProcess(base)).stderr).toContain('--url is required')
    expect((await inProcess([...base, '--url', url, '--outcome', 'lost'])).code).toBe(2)
    expect((await inProcess([...base, '--url', url, '--since', 'yesterday'])).code).toBe(2)
    const missing = await inProcess(['replay', join(dir, 'none.jsonl'), '--url', url, '--secret', local])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('No capture file')
    expect((await inProcess(['replay', file, '--url', url])).stderr).toContain('RING_WEBHOOK_SECRET')
    // A port held with no server behind it: every connection is cut as it is accepted.
    const down = await holdPort()
    try {
      const unreachable = await inProcess([
        ...base,
        '--url',
        `http://127.0.0.1:${down.port}/webhooks`,
        '--outcome',
        'accepted',
      ])
      expect(unreachable.code).toBe(3)
      expect(unreachable.stdout).toContain('no answer')
    } finally {
      await down.close()
    }
    expect((await inProcess(['replay', '--help'])).stdout).toContain('--dry-run')
  })
})
