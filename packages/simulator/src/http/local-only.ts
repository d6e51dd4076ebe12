import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'
import { SimulatorError } from '../errors.js'

/** The header that carries the per-run token of state-changing control calls. */
export const TOKEN_HEADER = 'x-ringhook-sim-token'

/** Who may talk to the simulator: the host names it answers to, and its per-run token. */
export interface Access {
  /** Host names (lower case, no port) accepted beside IP addresses and `localhost`. */
  hosts: ReadonlySet<string>
  token: string
}

// A host name with an optional port, or a bracketed IPv6 address with one: what a Host header holds.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/

/**
 * Refuses a Host header that names something other than this machine. A page whose DNS name was
 * rebound to 127.0.0.1 still sends its own name here; an IP address cannot be rebound, and
 * `localhost` never leaves the machine, so those pass with any port (a proxy may forward them).
 */
export function checkHost(headers: IncomingHttpHeaders, access: Access): void {
  const host = headers.host?.toLowerCase() ?? ''
  const name = HOST_HEADER.exec(host)?.[1]
  if (name === undefined) {
    throw new SimulatorError(403, 'host_not_allowed', 'The request has no valid Host header.')
  }
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0 || name === 'localhost' || access.hosts.has(name)) return
  throw new SimulatorError(
    403,
    'host_not_allowed',
    `The simulator does not answer to the host "${name}". Call it by IP address or localhost, or start it with allowedHosts: ['${name}'] (ringhook simulate --allowed-hosts ${name}).`,
  )
}

/**
 * Refuses a control call sent by a browser from another page: an `Origin` that is not this host,
 * or a `Sec-Fetch-Site` other than same-origin (or `none`, typed in the address bar). Programs
 * that send neither header (curl, tests) pass here and meet the token check for writes.
 */
export function checkOrigin(headers: IncomingHttpHeaders): void {
  const { origin, host } = headers
  const site = headers['sec-fetch-site']
  const foreignOrigin = origin !== undefined && (!URL.canParse(origin) || new URL(origin).host !== host?.toLowerCase())
  if (foreignOrigin || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw new SimulatorError(
      403,
      'origin_not_allowed',
      'The control API answers only its own page: a call from another origin is refused.',
    )
  }
}

/** Refuses a state-changing control call without this run's token. */
export function checkToken(headers: IncomingHttpHeaders, access: Access): void {
  const given = headers[TOKEN_HEADER]
  if (typeof given !== 'string') {
    throw new SimulatorError(
      401,
      'token_required',
      `State-changing control calls need this run's token in the ${TOKEN_HEADER} header: sim.token in code, the Token line of \`ringhook simulate\`'s banner, or the RINGHOOK_SIM_TOKEN it was started with.`,
    )
  }
  const expected = Buffer.from(access.token)
  const actual = Buffer.from(given)
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new SimulatorError(
      401,
      'token_required',
      `The ${TOKEN_HEADER} header does not match this simulator's token (a new one is made every run unless RINGHOOK_SIM_TOKEN or the token option fixes it).`,
    )
  }
}
