export { fromNodeRequest, type NodeReadable, type NodeStyleRequest, StreamBody } from './node-request.js'
export {
  type NextFunction,
  type NodeMiddleware,
  type NodeMiddlewareOptions,
  ringhook,
  writeResponse,
} from './ringhook.js'
export { type ClosableServer, closeGracefully } from './shutdown.js'
