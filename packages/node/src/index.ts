/**
 * Mounts a `@ringhook/core` receiver on `node:http` or in any Connect-style stack, and stops a server
 * gracefully on SIGTERM.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { fromNodeRequest, type NodeReadable, type NodeStyleRequest, ReadBody, StreamBody } from './node-request.js'
export {
  type NextFunction,
  type NodeMiddleware,
  type NodeMiddlewareOptions,
  ringhook,
  writeResponse,
} from './ringhook.js'
export { type ClosableServer, closeGracefully } from './shutdown.js'
