// `pnpm demo`: plays the scripted session and exits 0 when every step behaved as the spec says.
import { runDemo } from './run-demo.js'
import { wantsColor } from './timeline.js'

const result = await runDemo({
  write: (text) => process.stdout.write(text),
  color: wantsColor(process.stdout),
})
process.exit(result.ok ? 0 : 1)
