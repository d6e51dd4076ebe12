import core = require('@ringhook/core')
import node = require('@ringhook/node')

// A CommonJS app loads the packages' require entries; the shared scenario is ESM, loaded dynamically.
async function main(): Promise<void> {
  const { playOneGesture } = await import('./app.mjs')
  // The scenario is typed against the ESM declarations; at run time it gets the require() copies.
  type Modules = Parameters<typeof playOneGesture>
  await playOneGesture(core as unknown as Modules[0], node as unknown as Modules[1])
  console.log('scratch app: ok (cjs)')
}
void main()
