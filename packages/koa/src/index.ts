/**
 * Mounts a `@ringhook/core` receiver in a Koa 3 app, as middleware that answers one path and passes
 * every other request on.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type RinghookOptions, ringhook } from './ringhook.js'
