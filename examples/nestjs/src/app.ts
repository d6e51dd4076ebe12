import 'reflect-metadata'
import { BadRequestException, Body, Controller, Get, type INestApplication, Inject, Module, Post } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/nestjs'

/** The Nest app, and its receiver (for a graceful shutdown). */
export interface App {
  app: INestApplication
  receiver: Receiver
}

/** The message gestures are answered with; a provider, so the API and the handlers share it. */
class ReplyMessage {
  value: string | undefined
}

@Controller()
class ApiController {
  constructor(@Inject(ReplyMessage) private readonly reply: ReplyMessage) {}

  @Get('health')
  health() {
    return 'ok'
  }

  @Get('api/reply-message')
  get() {
    return { message: this.reply.value ?? null }
  }

  // Parsed by Nest's global JSON body parser, as every route of the app but the webhook one.
  @Post('api/reply-message')
  set(@Body() body: { message?: unknown } | undefined) {
    const message = body?.message
    if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
      throw new BadRequestException({ error: 'message must be a string of 1 to 80 characters' })
    }
    this.reply.value = message
    return { message }
  }
}

/** The example app: a webhook receiver and a small JSON API that sets what gestures are answered with. */
export async function createApp(
  secret: ReceiverOptions['secret'],
  options: Omit<ReceiverOptions, 'secret'> = {},
): Promise<App> {
  const reply = new ReplyMessage()
  const receiver = createReceiver({ ...options, secret })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(reply.value ?? `Got your ${event.gesture_type}`))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  // POST /webhooks, added ahead of Nest's body parser; the controllers keep it.
  @Module({
    imports: [ringhook(receiver)],
    controllers: [ApiController],
    providers: [{ provide: ReplyMessage, useValue: reply }],
  })
  class AppModule {}

  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] })
  return { app, receiver }
}
