import 'reflect-metadata'
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { BadRequestException, Body, Controller, Get, Inject, Module, Post } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import type { NestExpressApplication } from '@nestjs/platform-express'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/nestjs'

/** The Nest app, and its receiver (for a graceful shutdown). */
export interface App {
  app: NestExpressApplication
  receiver: Receiver
}

export interface AdminOptions {
  /** Bearer token of the admin API; without one the API is not served at all. */
  token?: string | undefined
}

const MAX_MESSAGE = VIBE_LIMITS.maxMessageLength

/** The message gestures are answered with; a provider, so the API and the handlers share it. */
class ReplyMessage {
  value: string | undefined
}

/** The receiver's capture, when it has one; a provider, so the health route can read its counts. */
class CaptureHolder {
  value: Capture | undefined
}

@Controller()
class HealthController {
  constructor(@Inject(CaptureHolder) private readonly capture: CaptureHolder) {}

  @Get('health')
  health() {
    return health(this.capture.value)
  }
}

/** The admin API; in the module only when there is a token, behind the bearer check below. */
@Controller('api')
class AdminController {
  constructor(@Inject(ReplyMessage) private readonly reply: ReplyMessage) {}

  @Get('reply-message')
  get() {
    return { message: this.reply.value ?? null }
  }

  @Post('reply-message')
  set(@Body() body: { message?: unknown } | undefined) {
    const message = body?.message
    if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
      throw new BadRequestException({ error: `message must be a string of 1 to ${MAX_MESSAGE} characters` })
    }
    this.reply.value = message
    return { message }
  }
}

/**
 * The example app: a webhook receiver, and an admin API that sets what gestures are answered
 * with, served only with a bearer token.
 */
export async function createApp(
  secret: ReceiverOptions['secret'],
  options: Omit<ReceiverOptions, 'secret'> = {},
  admin: AdminOptions = {},
): Promise<App> {
  const reply = new ReplyMessage()
  const receiver = createReceiver({ ...options, secret })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(reply.value ?? fit(`Got your ${event.gesture_type}`)))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  // POST /webhooks, added ahead of Nest's body parser; the controllers keep it.
  @Module({
    imports: [ringhook(receiver)],
    controllers: admin.token ? [HealthController, AdminController] : [HealthController],
    providers: [
      { provide: ReplyMessage, useValue: reply },
      { provide: CaptureHolder, useValue: Object.assign(new CaptureHolder(), { value: options.capture }) },
    ],
  })
  class AppModule {}

  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ['error', 'warn'] })
  if (admin.token) {
    // Who may change what every user's ring says. Guards run after the body parser has read the
    // body, so the token is checked by a middleware added now, ahead of the parser Nest installs
    // when the app starts. The app's only JSON route is this API's: JSON bodies are limited to 1 KiB.
    app.use('/api', requireBearer(admin.token))
    app.useBodyParser('json', { limit: '1kb' })
    app.use('/api', parserErrors)
  }
  return { app, receiver }
}

type Next = (error?: unknown) => void

/** Lets through requests carrying `Authorization: Bearer <token>`; compares in constant time. */
function requireBearer(token: string) {
  const expected = sha256(token)
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    // Digests have one length, so the comparison time says nothing about the token.
    if (given !== undefined && timingSafeEqual(sha256(given), expected)) return next()
    json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' })
  }
}

/**
 * The parser's errors (413 too large, 400 not JSON) as JSON. They happen before Nest routes the
 * request, so its exception filters never see them; Express would answer with its error page.
 */
function parserErrors(error: { status?: unknown }, _req: IncomingMessage, res: ServerResponse, next: Next) {
  const status = error.status
  if (typeof status !== 'number' || status < 400 || status >= 500) return next(error)
  // The rest of a body too large is not read: close the connection after the answer.
  json(
    res,
    status,
    { error: status === 413 ? 'body too large' : 'bad request' },
    status === 413 ? { connection: 'close' } : {},
  )
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
function fit(text: string): string {
  const characters = Array.from(text) // code points, as the rules count them
  return characters.length <= MAX_MESSAGE ? text : `${characters.slice(0, MAX_MESSAGE - 1).join('')}…`
}

/**
 * What `GET /health` answers: up, and with capture on, what it recorded and lost (`stats()`), so a
 * capture losing records shows where the app is watched, not only in a log line.
 */
function health(capture: Capture | undefined) {
  return { status: 'ok', ...(capture ? { capture: capture.stats() } : {}) }
}
