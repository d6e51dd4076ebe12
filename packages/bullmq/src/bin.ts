#!/usr/bin/env node
// Deprecated, removed in 0.3.0: `ringhook jobs` of @ringhook/cli runs the same commands.
import { runJobsCli } from './cli.js'

process.stderr.write('ringhook-jobs is deprecated and removed in 0.3.0: run `npx @ringhook/cli jobs ...`\n')
process.exitCode = await runJobsCli(process.argv.slice(2))
