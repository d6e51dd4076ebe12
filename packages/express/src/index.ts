export { type ExpressRequest, type NextFunction, type RinghookHandler, ringhook } from './ringhook.js'
