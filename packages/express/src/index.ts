/**
 * Mounts a `@ringhook/core` receiver in an Express 4 or 5 app, reading the raw body itself.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type ExpressRequest, type NextFunction, type RinghookHandler, ringhook } from './ringhook.js'
