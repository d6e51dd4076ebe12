import { afterEach, describe, expect, it } from 'vitest'
import { builtin } from './builtin.js'

type Crypto = { createHash: unknown }

describe('builtin', () => {
  const global = globalThis as Record<string, unknown>
  afterEach(() => {
    delete global.Deno
    delete global.Bun
  })

  it('finds node:crypto on Node', () => {
    expect(builtin<Crypto>('node:crypto', 'createHash')).toBeDefined()
  })

  // Their node:crypto layer costs a Deno cold start ~43 ms: Web Crypto is used there instead.
  it.each(['Deno', 'Bun'])('leaves %s to Web Crypto', (runtime) => {
    global[runtime] = {}
    expect(builtin<Crypto>('node:crypto', 'createHash')).toBeUndefined()
  })
})
