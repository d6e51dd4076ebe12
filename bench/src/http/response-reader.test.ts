import { describe, expect, it } from 'vitest'
import { responseEnd } from './response-reader.js'

const bytes = (text: string) => Buffer.from(text, 'latin1')
const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}'
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"ok\r\n7\r\n":true}\r\n0\r\n\r\n'

describe('responseEnd', () => {
  it('reads the status and length of a Content-Length response', () => {
    expect(responseEnd(bytes(OK))).toEqual({ status: 200, length: OK.length, close: false })
  })

  it('waits for every byte: a response cut anywhere is incomplete', () => {
    for (const whole of [OK, CHUNKED]) {
      for (let cut = 0; cut < whole.length; cut++) expect(responseEnd(bytes(whole.slice(0, cut)))).toBeUndefined()
      expect(responseEnd(bytes(whole))?.length).toBe(whole.length)
    }
  })

  it('finds the end of a chunked body', () => {
    expect(responseEnd(bytes(CHUNKED))).toEqual({ status: 200, length: CHUNKED.length, close: false })
  })

  it('says where the first response ends when more bytes follow it', () => {
    expect(responseEnd(bytes(OK + OK))?.length).toBe(OK.length)
  })

  it('reads a body-less answer and a server that closes, headers in any case', () => {
    const head = 'HTTP/1.1 401 Unauthorized\r\nCONNECTION: close\r\ncontent-length: 0\r\n\r\n'
    expect(responseEnd(bytes(head))).toEqual({ status: 401, length: head.length, close: true })
    const noBody = 'HTTP/1.1 204 No Content\r\n\r\n'
    expect(responseEnd(bytes(noBody))).toEqual({ status: 204, length: noBody.length, close: false })
  })

  it('throws on bytes that are not an HTTP response', () => {
    expect(() => responseEnd(bytes('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP response/)
    expect(() => responseEnd(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'))).toThrow(/chunk/)
  })
})
