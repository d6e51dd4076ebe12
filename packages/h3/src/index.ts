/**
 * Mounts a `@ringhook/core` receiver in an h3 v2 app (Nitro v3).
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type RinghookHandler, ringhook } from './ringhook.js'
