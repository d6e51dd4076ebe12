import * as core from '@ringhook/core'
import * as adapter from '@ringhook/core/adapter'
import * as api from '@ringhook/core/api'
import * as signature from '@ringhook/core/signature'
import * as store from '@ringhook/core/store'
import * as node from '@ringhook/node'
import * as schemas from '@ringhook/schemas'
import { checkSchemas, checkSubpaths, playOneGesture } from './app.mjs'

checkSubpaths(adapter, api, store)
checkSchemas(schemas)
await playOneGesture(core, node, signature)
console.log('scratch app: ok (esm)')
