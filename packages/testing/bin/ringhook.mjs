#!/usr/bin/env node
// Deprecated: the CLI is the package @ringhook/cli now. This bin stays one minor version, so that
// `npx ringhook` in a project with @ringhook/testing keeps working instead of falling through to the
// unscoped name on the registry; it runs the CLI by its scoped name, as the README says to.
import { spawnSync } from 'node:child_process'

process.stderr.write(
  'ringhook: the CLI moved to @ringhook/cli: run `npx @ringhook/cli <command>`. ' +
    'The ringhook bin of @ringhook/testing is deprecated and goes in the next minor version.\n',
)
const forwarded = spawnSync('npx', ['--yes', '@ringhook/cli', ...process.argv.slice(2)], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
})
if (forwarded.error) process.stderr.write(`ringhook: could not run npx: ${forwarded.error.message}\n`)
process.exitCode = forwarded.status ?? 1
