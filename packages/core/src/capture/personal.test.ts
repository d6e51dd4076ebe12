import { describe, expect, it } from 'vitest'
import { hashInText, removePersonal } from './personal.js'

const personal = { fields: ['external_user_id', 'email'], action: 'hash' as const }

// Hostile spellings: each must read, once parsed, exactly as the body written again from its parse.
const bodies = [
  '{"external_user_id":"a","data":{}}',
  '{ "external_user_id" :\t"a" ,"data":{"email":"b@c"}}',
  '{"data":[{"email":"x"},{"email":"y","external_user_id":"z"}]}',
  '{"note":"\\"external_user_id\\":\\"no\\"","external_user_id":"yes"}',
  '{"k\\\\":"external_user_id","external_user_id":"q\\"uote\\\\"}',
  '{"external_user_id":"dup","external_user_id":"last"}',
  '{"label":"email","list":["email","external_user_id"]}',
  '{"x\\\\\\"external_user_id":"not a key of its own","email":"e"}',
  '{"external_user_idx":"other field","xemail":"other"}',
  '{"data":{"external_user_id":"é 👍 \\n \\/"}}',
  // Beyond ASCII, and U+2028 that JSON keeps raw: hashed where it stands as its parse hashes it.
  '{"external_user_id":"é👍ü\u2028","email":"ü"}',
]

describe('hashInText', () => {
  it.each(bodies)('reads as the body written again from its parse: %s', (text) => {
    const inText = hashInText(text, personal, 'salt')
    expect(inText).toBeDefined()
    const fromParse = removePersonal(JSON.parse(text), personal, 'salt') ?? text
    expect(JSON.parse(inText as string)).toEqual(JSON.parse(fromParse))
  })

  it.each([
    ['a \\u escape anywhere', '{"external\\u005fuser_id":"a"}'],
    ['a value that is not a string', '{"email":{"a":1}}'],
    ['a null value', '{"email":null}'],
  ])('leaves the body to its parse for %s', (_name, text) => {
    expect(hashInText(text, personal, 'salt')).toBeUndefined()
  })

  it('leaves dropping to the parse', () => {
    expect(hashInText('{"email":"a"}', { ...personal, action: 'drop' }, 'salt')).toBeUndefined()
  })
})
