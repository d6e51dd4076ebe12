import * as core from '@ringhook/core'
import * as adapter from '@ringhook/core/adapter'
import * as api from '@ringhook/core/api'
import * as node from '@ringhook/node'
import { checkSubpaths, playOneGesture } from './app.mjs'

checkSubpaths(adapter, api)
await playOneGesture(core, node)
console.log('scratch app: ok (esm)')
