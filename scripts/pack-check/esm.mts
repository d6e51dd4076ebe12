import * as core from '@ringhook/core'
import * as node from '@ringhook/node'
import { playOneGesture } from './app.mjs'

await playOneGesture(core, node)
console.log('scratch app: ok (esm)')
