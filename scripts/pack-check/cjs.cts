import core = require('@ringhook/core')
import adapter = require('@ringhook/core/adapter')
import api = require('@ringhook/core/api')
import signature = require('@ringhook/core/signature')
import store = require('@ringhook/core/store')
import node = require('@ringhook/node')
import schemas = require('@ringhook/schemas')

// A CommonJS app loads the packages' require entries; the shared scenario is ESM, loaded dynamically.
async function main(): Promise<void> {
  const { checkSchemas, checkSubpaths, playOneGesture } = await import('./app.mjs')
  // The scenario is typed against the ESM declarations; at run time it gets the require() copies.
  type Modules = Parameters<typeof playOneGesture>
  type Subpaths = Parameters<typeof checkSubpaths>
  checkSubpaths(adapter as unknown as Subpaths[0], api as unknown as Subpaths[1], store as unknown as Subpaths[2])
  checkSchemas(schemas as unknown as Parameters<typeof checkSchemas>[0])
  await playOneGesture(core as unknown as Modules[0], node as unknown as Modules[1], signature as unknown as Modules[2])
  console.log('scratch app: ok (cjs)')
}
void main()
