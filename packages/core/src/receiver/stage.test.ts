import { describe, expect, it } from 'vitest'
import { inOrder } from './stage.js'
import { authenticate } from './stages/authenticate.js'
import { dedup } from './stages/dedup.js'
import { handle } from './stages/handle.js'
import { parse } from './stages/parse.js'
import { receive } from './stages/receive.js'
import { settle } from './stages/settle.js'

// The typecheck (`tsc -p tsconfig.json`, which covers this file) is the test: each `@ts-expect-error`
// fails it if the order below it compiles.
describe('the order of the stages', () => {
  it('compiles only when each stage takes what the one before gives, from nothing to an answer', () => {
    expect(inOrder(receive, authenticate, parse, dedup, handle, settle)).toHaveLength(6)

    // @ts-expect-error: parse takes an authentic body; receive gives one not yet authenticated
    inOrder(receive, parse, authenticate, dedup, handle, settle)
    // @ts-expect-error: authentication skipped
    inOrder(receive, parse, dedup, handle, settle)
    // @ts-expect-error: handlers run before the dedup claim
    inOrder(receive, authenticate, parse, handle, dedup, settle)
    // @ts-expect-error: settling before the handlers
    inOrder(receive, authenticate, parse, dedup, settle, handle)
    // @ts-expect-error: the first stage must take nothing
    inOrder(authenticate, receive, parse, dedup, handle, settle)
    // @ts-expect-error: the last stage must answer every delivery; handle gives an outcome to settle
    inOrder(receive, authenticate, parse, dedup, handle)
  })
})
