#!/usr/bin/env node
// The `ringhook` bin. A committed file, so package managers can link it before anything is built;
// the CLI itself is the build output dist/cli.js.
import { existsSync } from 'node:fs'

const cli = new URL('../dist/cli.js', import.meta.url)

if (existsSync(cli)) {
  await import(cli.href)
} else {
  process.stderr.write(
    '✘ ringhook is not built yet: dist/cli.js is missing.\n' +
      '  In the ringhook repository, run `pnpm build` (`pnpm test` and `pnpm demo` build first).\n',
  )
  process.exitCode = 1
}
