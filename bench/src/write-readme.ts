/**
 * `pnpm --dir bench readme`: rewrites the root README's Performance block from bench/RESULTS.md, as a
 * full run does after writing it. For a RESULTS.md edited or restored by hand; measures nothing.
 */
import { fileURLToPath } from 'node:url'
import { rewriteReadmePerformance } from './performance.js'

const results = fileURLToPath(new URL('../RESULTS.md', import.meta.url))
console.log(`Performance block rewritten from ${results}: ${rewriteReadmePerformance(results)}`)
