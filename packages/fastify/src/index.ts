/**
 * Mounts a `@ringhook/core` receiver in a Fastify 5 app, as a plugin that owns one route and reads
 * its raw body for the receiver.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type RinghookOptions, ringhook } from './ringhook.js'
