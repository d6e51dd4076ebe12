/**
 * Mounts a `@ringhook/core` receiver as an AWS Lambda handler for API Gateway (REST and HTTP
 * APIs), Function URLs and ALB: one handler, which reads the event's shape to know which called it.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export type { LambdaHttpEvent } from './request.js'
export { type LambdaHttpResult, type RinghookLambdaHandler, ringhook } from './ringhook.js'
