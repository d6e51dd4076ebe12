export { type RinghookHandler, ringhook } from './ringhook.js'
