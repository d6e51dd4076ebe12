#!/usr/bin/env node
// Deprecated, kept one minor version: `ringhook jobs` of @ringhook/cli runs the same commands.
import { runJobsCli } from './cli.js'

process.stderr.write(
  'ringhook-jobs is deprecated and goes in the next minor version: run `npx @ringhook/cli jobs ...`\n',
)
process.exitCode = await runJobsCli(process.argv.slice(2))
