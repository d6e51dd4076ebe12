import { randomUUID } from 'node:crypto'
import { checkGestureReply, explainAnswer, signEvent } from '@ringhook/testing'
import { cutNote } from '../answer.js'
import { frameworkError } from '../reply-text.js'
import { type NoAnswerReason, type ProbeResult, post } from './post.js'

/** Where the receiver is, and what the doctor needs to sign probes it should accept. */
export interface DoctorOptions {
  /** The webhook URL as configured on the service's apps page. */
  url: string
  /** The app's current webhook secret. */
  secret: string
  /** The secret before the last regeneration: tells a receiver that was not updated from a wrong secret. */
  previousSecret?: string
  /** The app id put in the probes (a receiver that picks its secret per app needs the real one). */
  appId?: string
  /** The service's acknowledgement limit. Default 30 000 ms. */
  ackLimitMs?: number
  /** The service's timestamp tolerance. Default 300 s. */
  toleranceSeconds?: number
}

/** How much a finding matters: fine, worth knowing, likely to cause trouble, or breaking deliveries. */
export type FindingLevel = 'ok' | 'info' | 'warn' | 'fail'

/** One thing the doctor found, in plain words. */
export interface Finding {
  /** Stable identifier, for scripts and tests. */
  id: FindingId
  /** How much it matters; any `fail` makes the report not `ok`. */
  level: FindingLevel
  /** What was found, in one line. */
  title: string
  /** Why it matters and what to change. */
  detail?: string
}

/** Every finding the doctor can report; stable across releases. */
export type FindingId =
  | 'reachable'
  | 'unreachable'
  | 'tls'
  | 'slow'
  | 'clock_skew'
  | 'path'
  | 'redirect'
  | 'body_parsed'
  | 'reserialised'
  | 'wrong_secret'
  | 'old_secret'
  | 'rejected'
  | 'reply_valid'
  | 'reply_none'
  | 'reply_invalid'
  | 'unsigned_accepted'
  | 'forged_accepted'
  | 'stale_accepted'
  | 'duplicate_handled'
  | 'clock_ok'
  | 'unsigned_refused'
  | 'forged_refused'
  | 'stale_refused'
  | 'raw_body'
  | 'duplicate_same'
  | 'answer_cut'

/** What the doctor found about one receiver. */
export interface DoctorReport {
  /** The URL probed. */
  url: string
  /** Every check that ran, passed (`ok`) or not, in the order the probes ran. */
  findings: Finding[]
  /** No finding at level `fail`. */
  ok: boolean
}

/**
 * Sends signed probes to a running receiver, as the service would, and explains what it finds:
 * connection and TLS problems, a wrong path or redirect, a wrong or old secret, clock skew, a body
 * parsed or re-serialised before verification, a gesture reply that breaks the trigger rules, answers
 * slower than the service waits, and a receiver that accepts what it must refuse.
 *
 * The probes are real gestures (`gesture_type: "ringhook_doctor"`, a fresh `user_app_id` each), so
 * the app's gesture handler runs for each one it accepts.
 *
 * @example
 * import { runDoctor } from '@ringhook/cli/doctor'
 *
 * const report = await runDoctor({ url: 'http://127.0.0.1:3000/webhooks', secret: 'whsec_dev' })
 * for (const finding of report.findings) console.log(finding.level, finding.title)
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const doctor = new Doctor(options)
  await doctor.examine()
  return { url: options.url, findings: doctor.findings, ok: doctor.findings.every((f) => f.level !== 'fail') }
}

interface Probe {
  body: string
  headers: Record<string, string>
}

class Doctor {
  readonly findings: Finding[] = []
  readonly #options: Required<Omit<DoctorOptions, 'previousSecret'>> & { previousSecret: string | undefined }

  constructor(options: DoctorOptions) {
    this.#options = {
      appId: 'app_ringhook_doctor',
      ackLimitMs: 30_000,
      toleranceSeconds: 300,
      ...options,
      previousSecret: options.previousSecret,
    }
  }

  async examine(): Promise<void> {
    const probe = await this.#probe()
    const result = await this.#send(probe)
    if (result.kind === 'no_answer') return this.#noAnswer(result.reason, result.detail)
    this.#checkClock(result.headers)
    if (result.status >= 200 && result.status < 300) {
      this.#accepted(result)
      await this.#attack(probe, result)
    } else {
      await this.#refused(result)
    }
  }

  #add(id: FindingId, level: FindingLevel, title: string, detail?: string): void {
    this.findings.push(detail === undefined ? { id, level, title } : { id, level, title, detail })
  }

  /** A gesture signed as the service signs it, unique so that dedup never mixes two probes. */
  async #probe(options: { secret?: string; timestamp?: number; pretty?: boolean } = {}): Promise<Probe> {
    const payload = {
      event: 'gesture',
      gesture_type: 'ringhook_doctor',
      user_app_id: randomUUID(),
      app_id: this.#options.appId,
      timestamp: new Date().toISOString(),
      data: {},
    }
    const text = options.pretty ? JSON.stringify(payload, null, 2) : JSON.stringify(payload)
    const signed = await signEvent({
      secret: options.secret ?? this.#options.secret,
      payload: text,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    })
    return { body: signed.body, headers: signed.headers }
  }

  async #send(probe: Probe): Promise<ProbeResult> {
    const result = await post(this.#options.url, probe.body, probe.headers, this.#options.ackLimitMs)
    if (result.kind === 'answer' && result.cut && !this.findings.some((f) => f.id === 'answer_cut')) {
      this.#add(
        'answer_cut',
        'warn',
        `An answer was longer than the doctor reads ${cutNote()}`,
        'A receiver answers a delivery with a few hundred bytes: something else answers at this URL, or the reply carries far more than it should.',
      )
    }
    return result
  }

  #noAnswer(reason: NoAnswerReason, detail: string): void {
    const { url, ackLimitMs } = this.#options
    const host = new URL(url).host
    const found: Record<NoAnswerReason, [FindingId, string, string]> = {
      refused: ['unreachable', `Nothing accepts connections at ${host}`, 'Start the app, or check the host and port.'],
      dns: ['unreachable', `The host name in ${url} does not resolve`, 'Check the URL for typos.'],
      tls: [
        'tls',
        `The TLS handshake with ${host} failed`,
        'The service checks certificates like any HTTPS client: serve a certificate from a public CA that matches the host name and is not expired.',
      ],
      timeout: [
        'slow',
        `No answer within ${ackLimitMs} ms`,
        'The service counts a delivery as failed after 30 s and retries it: answer sooner, and move slow work after the answer or to a queue.',
      ],
      reset: ['unreachable', `${host} closed the connection without an answer`, 'Check the server and proxy logs.'],
      other: ['unreachable', `The request to ${url} failed`, ''],
    }
    const [id, title, advice] = found[reason]
    this.#add(id, 'fail', title, [advice, `(${detail})`].filter(Boolean).join(' '))
  }

  #checkClock(headers: Headers): void {
    const date = Date.parse(headers.get('date') ?? '')
    if (Number.isNaN(date)) return
    const skew = Math.round((date - Date.now()) / 1000)
    const { toleranceSeconds } = this.#options
    if (Math.abs(skew) <= 5) {
      this.#add('clock_ok', 'ok', "The server's clock agrees with this one (its Date header)")
    } else if (Math.abs(skew) > toleranceSeconds) {
      this.#add(
        'clock_skew',
        'fail',
        `The server's clock is ${describeSkew(skew)}`,
        `Past ${toleranceSeconds} s every signature is refused as too old or too new. Sync the clock (NTP).`,
      )
    } else if (Math.abs(skew) > 5) {
      this.#add(
        'clock_skew',
        'warn',
        `The server's clock is ${describeSkew(skew)}`,
        'Within the tolerance, but drifting: sync the clock (NTP).',
      )
    }
  }

  #accepted(result: Extract<ProbeResult, { kind: 'answer' }>): void {
    const { ackLimitMs } = this.#options
    this.#add('reachable', 'ok', `A signed gesture was acknowledged: ${result.status} in ${result.ms} ms`)
    if (result.ms > ackLimitMs / 2) {
      this.#add(
        'slow',
        'warn',
        `The answer took ${result.ms} ms, over half the service's ${ackLimitMs} ms limit`,
        'A slower moment would make the service retry: answer sooner, and move slow work to a queue.',
      )
    }
    const reply = checkGestureReply(result.body)
    if (reply.kind === 'invalid') {
      this.#add(
        'reply_invalid',
        'fail',
        'The gesture reply breaks the trigger rules, so the ring would not vibrate',
        `The service refuses it: ${reply.rule}. Build replies with vibe() from @ringhook/core, which checks the rules when the vibe is built.`,
      )
    } else if (reply.kind === 'vibe') {
      this.#add('reply_valid', 'ok', 'The gesture reply is a valid vibe')
    } else {
      this.#add('reply_none', 'info', 'The gesture was acknowledged without a vibe')
    }
  }

  /** Probes a receiver that accepted a good delivery with deliveries it must refuse, and one it must accept. */
  async #attack(probe: Probe, first: Extract<ProbeResult, { kind: 'answer' }>): Promise<void> {
    const unsigned = await this.#probe()
    const { 'x-service-signature': _signature, 'x-service-timestamp': _timestamp, ...bare } = unsigned.headers
    await this.#mustRefuse({ body: unsigned.body, headers: bare }, 'unsigned', 'A delivery with no signature')
    await this.#mustRefuse(
      await this.#probe({ secret: `${this.#options.secret}-forged` }),
      'forged',
      'A delivery signed with another secret',
    )
    const stale = Math.floor(Date.now() / 1000) - this.#options.toleranceSeconds - 60
    await this.#mustRefuse(await this.#probe({ timestamp: stale }), 'stale', 'A delivery signed 6 minutes ago')

    const pretty = await this.#send(await this.#probe({ pretty: true }))
    if (pretty.kind === 'answer' && pretty.status === 401) {
      this.#add(
        'reserialised',
        'fail',
        'The body is re-serialised before its signature is checked',
        'A compact body verified but the same event with other whitespace did not: the signature must be checked over the exact bytes received, before any JSON parser runs (mount ringhook before the parser).',
      )
    } else if (pretty.kind === 'answer' && pretty.status >= 200 && pretty.status < 300) {
      this.#add('raw_body', 'ok', 'The signature is checked over the raw bytes (a pretty-printed body verified)')
    }
    const again = await this.#send(probe)
    if (again.kind === 'answer' && (again.status !== first.status || again.body !== first.body)) {
      this.#add(
        'duplicate_handled',
        'warn',
        'A repeated delivery got a different answer',
        'The service retries deliveries: a duplicate should get the answer the first one got without running the handler again.',
      )
    } else if (again.kind === 'answer') {
      this.#add('duplicate_same', 'ok', 'A repeated delivery got the same answer as the first')
    }
  }

  async #mustRefuse(probe: Probe, check: 'unsigned' | 'forged' | 'stale', what: string): Promise<void> {
    const result = await this.#send(probe)
    if (result.kind === 'answer' && result.status >= 200 && result.status < 300) {
      this.#add(
        `${check}_accepted`,
        'fail',
        `${what} was accepted`,
        'Anyone could send this receiver events: check the signature and timestamp of every delivery before handling it.',
      )
    } else if (result.kind === 'answer') {
      this.#add(`${check}_refused`, 'ok', `${what} was refused (${result.status})`)
    }
  }

  async #refused(result: Extract<ProbeResult, { kind: 'answer' }>): Promise<void> {
    const { code, meaning, fix } = explainAnswer(result.status, result.body)
    const answer = `${result.status}${code ? ` ${code}` : ''}`
    if (result.status === 401) return this.#unauthorized(answer)
    if (code === 'body_already_parsed') {
      return this.#add('body_parsed', 'fail', `The body is parsed before ringhook reads it (${answer})`, fix)
    }
    if (result.status >= 300 && result.status < 400) {
      const location = result.headers.get('location')
      return this.#add('redirect', 'fail', `Redirected${location ? ` to ${location}` : ''} (${answer})`, fix)
    }
    if (result.status === 404 || result.status === 405) {
      return this.#add(
        'path',
        'fail',
        `Nothing handles webhooks at ${new URL(this.#options.url).pathname} (${answer})`,
        fix,
      )
    }
    const framework = frameworkError(result.status, result.body)
    if (framework)
      return this.#add('rejected', 'fail', `The signed gesture got a ${result.status} HTML page`, `${framework}.`)
    this.#add('rejected', 'fail', `The signed gesture was refused: ${answer}, ${meaning}`, fix)
  }

  /** A 401 to a correct signature: an old secret, the clock (already reported), or a wrong secret. */
  async #unauthorized(answer: string): Promise<void> {
    const { previousSecret } = this.#options
    if (previousSecret) {
      const old = await this.#send(await this.#probe({ secret: previousSecret }))
      if (old.kind === 'answer' && old.status >= 200 && old.status < 300) {
        return this.#add(
          'old_secret',
          'fail',
          `The receiver still has the previous secret (${answer} with the current one)`,
          'The service signs with the current secret since the last regeneration: deploy it, with the old one beside it during the switch (secret: [current, previous]).',
        )
      }
    }
    if (this.findings.some((f) => f.id === 'clock_skew' && f.level === 'fail')) return
    this.#add(
      'wrong_secret',
      'fail',
      `The signature was refused (${answer})`,
      'The receiver has another secret than this one: copy the current secret from the apps page (it is regenerated whenever the webhook URL changes). Also check that a proxy keeps the X-SERVICE-Signature and X-SERVICE-Timestamp headers.',
    )
  }
}

function describeSkew(seconds: number): string {
  const amount = Math.abs(seconds) >= 120 ? `${Math.round(Math.abs(seconds) / 60)} min` : `${Math.abs(seconds)} s`
  return `${amount} ${seconds > 0 ? 'ahead' : 'behind'}`
}
