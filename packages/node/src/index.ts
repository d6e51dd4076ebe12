export {
  createNodeMiddleware,
  type NextFunction,
  type NodeMiddleware,
  type NodeMiddlewareOptions,
  writeResponse,
} from './middleware.js'
export { type ClosableServer, closeGracefully } from './shutdown.js'
