import 'reflect-metadata'
import {
  Body,
  type CanActivate,
  Controller,
  type INestApplication,
  Inject,
  Injectable,
  Module,
  type OnModuleInit,
  Post,
} from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter } from '@nestjs/platform-express'
import { FastifyAdapter } from '@nestjs/platform-fastify'
import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { gestureReceiver, recordingLogger, SECRET, signedGesture } from '../../../test/support/adapter-kit.js'
import { RINGHOOK_RECEIVER, RinghookModule, ringhook } from '../src/index.js'

const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

/** The app's own JSON route, parsed by Nest's global body parser. */
@Controller('api')
class EchoController {
  @Post('echo')
  echo(@Body() body: unknown) {
    return { got: body }
  }
}

/** A guard that turns every request away, as an app-wide auth guard would turn the service away. */
class DenyAll implements CanActivate {
  canActivate() {
    return false
  }
}

const platforms = [
  {
    platform: 'Express',
    adapter: () => new ExpressAdapter(),
    // An Express app handed to Nest with its own JSON parser already on it.
    parsingFirst: () => new ExpressAdapter(express().use(express.json())),
    fix: 'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })',
  },
  {
    platform: 'Fastify',
    adapter: () => new FastifyAdapter(),
    // A Fastify instance with an app-wide hook that buffers every body.
    parsingFirst: () => {
      const adapter = new FastifyAdapter()
      adapter.getInstance().addHook('onRequest', async (request) => {
        for await (const _chunk of request.raw) {
          // read and dropped
        }
      })
      return adapter
    },
    fix: 'onRequest or preParsing hook',
  },
]

let app: INestApplication | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** Creates the app on a platform, listening on 127.0.0.1; returns its base URL. */
async function serve(
  module: object,
  adapter: ExpressAdapter | FastifyAdapter,
  options: { prefix?: string; guard?: CanActivate } = {},
): Promise<string> {
  app = await NestFactory.create(module as never, adapter, { logger: false })
  if (options.prefix) app.setGlobalPrefix(options.prefix)
  if (options.guard) app.useGlobalGuards(options.guard)
  await app.listen(0, '127.0.0.1')
  return (await app.getUrl()).replace('[::1]', '127.0.0.1')
}

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe.each(platforms)("@ringhook/nestjs on Nest's $platform platform", ({ adapter, parsingFirst, fix }) => {
  it('verifies webhooks while the global JSON body parser serves the other routes', async () => {
    const { receiver, handled } = gestureReceiver()
    @Module({ imports: [ringhook(receiver)], controllers: [EchoController] })
    class AppModule {}
    const base = await serve(AppModule, adapter())
    const response = await fetch(`${base}/webhooks`, await signedGesture())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual(VIBE)
    expect(await (await postJson(`${base}/api/echo`, { note: 'hi' })).json()).toEqual({ got: { note: 'hi' } })
    expect(handled).toEqual(['double_tap'])
  })

  it('answers other methods with the JSON 405, and a tampered body with 401', async () => {
    const { receiver, handled } = gestureReceiver()
    @Module({ imports: [ringhook(receiver)] })
    class AppModule {}
    const base = await serve(AppModule, adapter())
    const get = await fetch(`${base}/webhooks`)
    expect(get.status).toBe(405)
    expect(await get.json()).toMatchObject({ error: { code: 'method_not_allowed' } })
    const delivery = await signedGesture()
    const forged = await fetch(`${base}/webhooks`, { ...delivery, body: delivery.body.replace('double', 'triple') })
    expect(forged.status).toBe(401)
    expect(await forged.json()).toMatchObject({ error: { code: 'unauthorized' } })
    expect(handled).toEqual([])
  })

  it('answers body_already_parsed and logs the fix when the platform read the body first', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    @Module({ imports: [ringhook(receiver)], controllers: [EchoController] })
    class AppModule {}
    const base = await serve(AppModule, parsingFirst())
    const delivery = await signedGesture()
    const response = await fetch(`${base}/webhooks`, delivery)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain(fix)
    expect(JSON.stringify(lines)).not.toContain(delivery.headers['x-service-signature'])
  })

  it("is not behind the app's global guards, which still guard its own routes", async () => {
    const { receiver, handled } = gestureReceiver()
    @Module({ imports: [ringhook(receiver)], controllers: [EchoController] })
    class AppModule {}
    const base = await serve(AppModule, adapter(), { guard: new DenyAll() })
    expect(await (await fetch(`${base}/webhooks`, await signedGesture())).json()).toEqual(VIBE)
    expect((await postJson(`${base}/api/echo`, { note: 'hi' })).status).toBe(403)
    expect(handled).toEqual(['double_tap'])
  })

  it('takes the receiver from a factory with injected providers, on its path beside a global prefix', async () => {
    const handled: string[] = []
    @Injectable()
    class GestureLog {
      readonly gestures = handled
    }
    /** Handlers registered from a provider, the way a Nest app would. */
    @Injectable()
    class GestureHandlers implements OnModuleInit {
      constructor(
        @Inject(RINGHOOK_RECEIVER) private readonly receiver: Receiver,
        @Inject(GestureLog) private readonly log: GestureLog,
      ) {}
      onModuleInit() {
        this.receiver.on('gesture', (event) => {
          this.log.gestures.push(event.gesture_type)
          return vibe('tap').message(`Got ${event.gesture_type}`)
        })
      }
    }
    @Module({ providers: [GestureLog], exports: [GestureLog] })
    class LogModule {}
    @Module({
      imports: [
        RinghookModule.forRootAsync({
          path: '/ring',
          imports: [LogModule],
          inject: [GestureLog],
          useFactory: (_log: GestureLog) => createReceiver({ secret: SECRET, logger: silentLogger }),
        }),
        LogModule,
      ],
      controllers: [EchoController],
      providers: [GestureHandlers],
    })
    class AppModule {}
    const base = await serve(AppModule, adapter(), { prefix: 'v1' })
    const response = await fetch(`${base}/ring`, await signedGesture())
    expect(await response.json()).toEqual(VIBE)
    expect(await (await postJson(`${base}/v1/api/echo`, { note: 'hi' })).json()).toEqual({ got: { note: 'hi' } })
    expect(handled).toEqual(['double_tap'])
  })
})
