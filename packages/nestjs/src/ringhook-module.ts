import { type DynamicModule, Module, type ModuleMetadata, type Provider } from '@nestjs/common'
import { type AbstractHttpAdapter, HttpAdapterHost } from '@nestjs/core'
import { type Receiver, RinghookConfigError } from '@ringhook/core'
import { ringhook as expressRinghook } from '@ringhook/express'
import { ringhook as fastifyRinghook } from '@ringhook/fastify'

/** The injection token of the receiver: inject it to register handlers from your own providers. */
export const RINGHOOK_RECEIVER = Symbol.for('@ringhook/nestjs:receiver')

const ROUTE = Symbol.for('@ringhook/nestjs:route')

/** Where the module's route is. */
export interface RinghookOptions {
  /** The path webhooks are posted to, from the server's root (no global prefix). Default `/webhooks`. */
  path?: string
}

/** How {@link RinghookModule.forRootAsync} builds the receiver, and where its route is. */
export interface RinghookModuleAsyncOptions extends RinghookOptions, Pick<ModuleMetadata, 'imports'> {
  /** Creates the receiver, with the providers named in `inject` (a config service, say). */
  useFactory: (...deps: never[]) => Receiver | Promise<Receiver>
  /** The providers `useFactory` is called with, in order: tokens or classes. */
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>
}

/**
 * Serves the receiver on one route of a Nest app, on the Express or the Fastify platform. The
 * route is added to the platform while the app is created, ahead of Nest's body parser (which
 * Nest installs when the app starts), so the receiver reads the body exactly as sent, with its
 * own limits; Nest's parser, pipes and guards serve every other route as before.
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest module is a class, configured by its static forRoot methods.
export class RinghookModule {
  /** The module for a receiver created outside Nest's container. */
  static forRoot(options: RinghookOptions & { receiver: Receiver }): DynamicModule {
    return moduleFor(options, { provide: RINGHOOK_RECEIVER, useValue: options.receiver })
  }

  /** The module for a receiver created by a factory that takes other providers. */
  static forRootAsync(options: RinghookModuleAsyncOptions): DynamicModule {
    const provider = { provide: RINGHOOK_RECEIVER, useFactory: options.useFactory, inject: options.inject ?? [] }
    return { ...moduleFor(options, provider), imports: options.imports ?? [] }
  }
}

/** The receiver's provider, and one that adds the route while the app is being created. */
function moduleFor(options: RinghookOptions, receiver: Provider): DynamicModule {
  const path = options.path ?? '/webhooks'
  const route: Provider = {
    provide: ROUTE,
    inject: [HttpAdapterHost, RINGHOOK_RECEIVER],
    useFactory: (host: HttpAdapterHost, created: Receiver) => mount(host.httpAdapter, created, path),
  }
  return { module: RinghookModule, providers: [receiver, route], exports: [RINGHOOK_RECEIVER] }
}

/**
 * The module for a receiver, the way every ringhook adapter is named.
 *
 * @example
 * @Module({ imports: [ringhook(receiver)] }) // POST /webhooks
 * class AppModule {}
 */
export function ringhook(receiver: Receiver, options: RinghookOptions = {}): DynamicModule {
  return RinghookModule.forRoot({ ...options, receiver })
}

/** Adds the route with the platform's own ringhook adapter. */
function mount(adapter: AbstractHttpAdapter, receiver: Receiver, path: string): string {
  const platform = adapter.getType()
  if (platform === 'express') adapter.use(path, expressRinghook(receiver))
  else if (platform === 'fastify') adapter.getInstance().register(fastifyRinghook(receiver, { path }))
  else throw new RinghookConfigError(`@ringhook/nestjs supports the express and fastify platforms, not "${platform}".`)
  return path
}
