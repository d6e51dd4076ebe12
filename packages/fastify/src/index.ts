/**
 * Mounts a `@ringhook/core` receiver in a Fastify 5 app, as a plugin that owns one route and leaves
 * the raw body to the receiver.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type RinghookPluginOptions, ringhook } from './ringhook.js'
