export { type RinghookMiddlewareOptions, ringhook } from './ringhook.js'
