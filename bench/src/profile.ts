/**
 * Runs one micro contender in a loop so a profiler sees only its work:
 *   node --cpu-prof --cpu-prof-dir=.tmp --import tsx src/profile.ts "ringhook receiver.handle()" 5
 * then open the .cpuprofile in Chrome DevTools (Performance tab) or VS Code.
 */
import { microContenders } from './micro/contenders.js'

const [name = 'ringhook receiver.handle()', seconds = '5'] = process.argv.slice(2)
const contender = microContenders.find((c) => c.name === name)
if (!contender) {
  console.error(`No contender named "${name}". Choose one of:\n  ${microContenders.map((c) => c.name).join('\n  ')}`)
  process.exit(1)
}
const op = await contender.setup()
const until = performance.now() + Number(seconds) * 1000
let done = 0
while (performance.now() < until) {
  for (let i = 0; i < 1000; i++) {
    const result = op()
    if (result instanceof Promise) await result
  }
  done += 1000
}
console.log(`${name}: ${done} operations in ${seconds} s`)
