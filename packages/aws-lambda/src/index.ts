export type { LambdaHttpEvent } from './request.js'
export { type LambdaHttpResult, type RinghookLambdaHandler, ringhook } from './ringhook.js'
