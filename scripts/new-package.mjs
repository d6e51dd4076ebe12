// One-off scaffolder kept for adding packages consistently: node scripts/new-package.mjs <name> "<description>"
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'

const [name, description = ''] = process.argv.slice(2)
if (!name) throw new Error('usage: node scripts/new-package.mjs <name> "<description>"')
const dir = new URL(`../packages/${name}/`, import.meta.url)
if (existsSync(new URL('package.json', dir))) throw new Error(`packages/${name} exists`)
mkdirSync(new URL('src/', dir), { recursive: true })
const pkg = {
  name: `@ringhook/${name}`,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=20' },
  main: './dist/index.cjs',
  module: './dist/index.js',
  types: './dist/index.d.ts',
  exports: {
    '.': {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './package.json': './package.json',
  },
  files: ['dist', 'README.md'],
  scripts: {
    build:
      'tsup src/index.ts --format esm,cjs --clean --sourcemap --target es2022 && node ../../scripts/declarations.mjs',
  },
  dependencies: name === 'core' ? {} : { '@ringhook/core': 'workspace:^' },
}
writeFileSync(new URL('package.json', dir), `${JSON.stringify(pkg, null, 2)}\n`)
