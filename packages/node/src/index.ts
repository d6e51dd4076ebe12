/**
 * Mounts a `@ringhook/core` receiver on `node:http` or in any Connect-style stack, and stops a server
 * gracefully on SIGTERM. Its request translation and stream readers are public too, for an app that
 * calls `receiver.handle()` itself on a Node request.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { fromNodeRequest, type NodeMiddlewareOptions } from './deprecated.js'
export { type NodeReadable, type NodeStyleRequest, ReadBody, StreamBody, toWebhookRequest } from './node-request.js'
export { type NextFunction, type NodeMiddleware, type RinghookOptions, ringhook, writeResponse } from './ringhook.js'
export { type ClosableServer, closeGracefully } from './shutdown.js'
