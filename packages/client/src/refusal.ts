/**
 * Why the platform would refuse to build this request before sending a byte, checked with its own
 * `Headers` and `Request` classes; undefined when it would not. The reasons never quote the
 * refused value: for a header that is the API key.
 */
export function refusalOf(url: URL, headers: Record<string, string>): string | undefined {
  if (typeof Headers === 'function') {
    try {
      new Headers(headers)
    } catch {
      return 'the API key is not a valid HTTP header value (a line break, a NUL, or a character above U+00FF)'
    }
  }
  if (url.username !== '' || url.password !== '') {
    return 'the base URL contains credentials, which fetch refuses; the API key goes in `apiKey`'
  }
  if (typeof Request === 'function') {
    try {
      new Request(url)
    } catch {
      return 'fetch refuses the URL'
    }
  }
  return undefined
}

/** The headers of every request: the key as a bearer token, JSON both ways. */
export function requestHeaders(apiKey: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' }
  if (hasBody) headers['content-type'] = 'application/json'
  return headers
}
