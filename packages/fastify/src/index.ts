export { type RinghookPluginOptions, ringhook } from './ringhook.js'
