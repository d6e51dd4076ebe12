import { createSimulator, DEMO_API_KEY, type Simulator } from '@ringhook/simulator'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startReceiver, type TestReceiver } from '../../simulator/test/support.js'
import { run } from '../src/cli/run.js'

/** Runs the CLI in-process against the simulator and captures what it prints. */
async function ringhook(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await run([...args, '--sim', sim.url], { out: (t) => void out.push(t), err: (t) => void err.push(t) })
  return { code, stdout: out.join('\n'), stderr: err.join('\n') }
}

let sim: Simulator
let target: TestReceiver
beforeAll(async () => {
  target = await startReceiver()
  // The acknowledgement limit is 30 s of real time, not the spec's 30 s scaled (300 ms): past it the
  // simulator sends the delivery again, and a busy machine can pass 300 ms whatever the receiver does.
  sim = await createSimulator({
    timeScale: 0.01,
    ackTimeoutMs: 3_000_000,
    seed: { webhookUrl: target.url, secret: 'whsec_drive' },
  })
})
afterAll(async () => {
  await sim.close()
  await target.close()
})
beforeEach(() => {
  vi.stubEnv('RINGHOOK_SIM_TOKEN', sim.token)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const events = () => target.received.map((r) => `${r.json.event}:${r.json.user_app_id}`)

describe('trigger verbs drive a running simulator by names', () => {
  it('users lists each user with their apps; --json gives the data', async () => {
    const listed = await ringhook('users')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^Ada +usr_ada +Demo control active \(demo-ada\), Demo notifications active/m)
    expect(listed.stdout).toMatch(/^Grace +usr_grace +Demo control passive/m)
    const json = JSON.parse((await ringhook('users', '--json')).stdout) as { users: { name: string }[] }
    expect(json.users.map((u) => u.name)).toEqual(['Ada', 'Grace', 'Linus', 'Margaret'])
  })

  it('activate, passive, deactivate and uninstall a user app by the user name, then install it again', async () => {
    const linus = sim.demo?.installs.linus.user_app_id as string
    const activated = await ringhook('activate', 'linus')
    expect(activated).toMatchObject({ code: 0, stdout: expect.stringContaining("✔ Linus's Demo control: active") })
    expect(activated.stdout).toContain('→ app.activated queued')
    expect((await ringhook('passive', 'Linus')).stdout).toContain("Linus's Demo control: passive")
    expect((await ringhook('deactivate', 'usr_linus')).stdout).toContain("Linus's Demo control: inactive")
    expect((await ringhook('uninstall', 'Linus', '--app', 'demo control')).stdout).toContain('uninstalled')
    await sim.idle()
    expect(events().filter((e) => e.endsWith(linus))).toEqual([
      `app.activated:${linus}`,
      `control.passive:${linus}`,
      `app.deactivated:${linus}`,
      `app.uninstalled:${linus}`,
    ])
    const installed = await ringhook('install', 'Linus', 'Demo control', '--activate')
    expect(installed.code).toBe(0)
    expect(installed.stdout).toMatch(/✔ Linus installed Demo control \(user_app_id [0-9a-f-]+\): active/)
  })

  it('gesture sends the named gesture from the user app, found by the external user id', async () => {
    const result = await ringhook('gesture', 'demo-ada', 'double_tap', '--app', 'Demo control')
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/✔ Ada did double_tap; sent to Demo control/),
    })
    await sim.idle()
    expect(target.received.at(-1)?.json).toMatchObject({ event: 'gesture', gesture_type: 'double_tap' })
  })

  it('event sends any event of the list as is, its fields set by --fields', async () => {
    const grace = sim.demo?.installs.grace.user_app_id as string
    const result = await ringhook(
      'event',
      'Grace',
      'app.activated',
      '--app',
      'Demo control',
      '--fields',
      '{"data":{"note":1}}',
    )
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/✔ Sent app.activated to Grace's Demo control/),
    })
    await sim.idle()
    expect(target.received.at(-1)?.json).toMatchObject({
      event: 'app.activated',
      user_app_id: grace,
      data: { note: 1 },
    })
    expect((await ringhook('users')).stdout).toMatch(/^Grace +usr_grace +Demo control passive/m)
    const unknown = await ringhook('event', 'Grace', 'slot.nothing', '--app', 'Demo control')
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('must be one of gesture') })
    expect((await ringhook('event', 'Grace', 'gesture', '--app', 'Demo control', '--fields', '[1]')).code).toBe(2)
  })

  it('answer answers the latest pending notification, or the one named, and deliveries lists them', async () => {
    const trigger = (message: string) =>
      fetch(`${sim.url}/v1/vibes/trigger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          app_id: 'app_demo_notify',
          user_app_id: '@me',
          sequence: [{ type: 'tap' }],
          message,
          response_mode: 'poll',
          response_config: { type: 'yes_no_dismiss' },
        }),
      }).then(async (r) => ((await r.json()) as { event_id: string }).event_id)
    const first = await trigger('first')
    const second = await trigger('second')
    const latest = await ringhook('answer', 'yes')
    expect(latest).toMatchObject({ code: 0, stdout: expect.stringContaining(`✔ Answered ${second}: yes`) })
    const named = await ringhook('answer', 'no', '--id', first, '--json')
    expect(JSON.parse(named.stdout)).toMatchObject({ notification: { event_id: first, response: 'no' } })
    expect((await ringhook('answer', 'yes')).code).toBe(1)
    await sim.idle()
    const listed = await ringhook('deliveries', '--limit', '2')
    expect(listed.stdout.split('\n')).toHaveLength(2)
    expect(listed.stdout).toMatch(/notification\.responded +delivered after 1 attempt\(s\) last answer 200/)
  })

  it('names the choices for an unknown name, needs the token to change anything, and exits 3 with no simulator', async () => {
    const unknown = await ringhook('gesture', 'Zoe', 'tap')
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('No user "Zoe"; there are: Ada, Grace') })
    const twoApps = await ringhook('activate', 'Ada')
    expect(twoApps.stderr).toContain('Ada has 2 apps (Demo control, Demo notifications): name one with --app.')
    vi.stubEnv('RINGHOOK_SIM_TOKEN', '')
    expect((await ringhook('activate', 'Grace', '--app', 'Demo control')).stderr).toContain('set RINGHOOK_SIM_TOKEN')
    const wrong = await ringhook('activate', 'Grace', '--app', 'Demo control', '--token', 'nope')
    expect(wrong.code).toBe(1)
    const nothing = await run(['users', '--sim', 'http://127.0.0.1:9'], { out: () => {}, err: () => {} })
    expect(nothing).toBe(3)
  })
})
