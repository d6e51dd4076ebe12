/**
 * Mounts a `@ringhook/core` receiver in a Hono app, on Node, Bun, Deno or Workers.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type RinghookHandler, ringhook } from './ringhook.js'
