/**
 * Mounts a `@ringhook/core` receiver in a NestJS 11 app, on the Express or the Fastify platform, as a
 * module whose route runs ahead of Nest's body parser.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  RINGHOOK_RECEIVER,
  RinghookModule,
  type RinghookModuleAsyncOptions,
  type RinghookOptions,
  ringhook,
} from './ringhook-module.js'
