/** Stable error codes of the simulator's API and control API (the `error.code` of every error body). */
export type SimulatorErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'token_required'
  | 'key_not_linked'
  | 'not_found'
  | 'method_not_allowed'
  | 'permission_disabled'
  | 'not_installed'
  | 'rate_limited'
  | 'invalid_transition'
  | 'conflict'
  | 'payload_too_large'
  | 'internal_error'

/**
 * An error the simulator answers with `{ error: { code, message } }`. The programmatic control API
 * throws the same errors the HTTP control API answers with.
 */
export class SimulatorError extends Error {
  /** Always `'SimulatorError'`. */
  override readonly name = 'SimulatorError'
  constructor(
    /** The HTTP status it is answered with. */
    readonly status: number,
    /** The stable code, for code to switch on. */
    readonly code: SimulatorErrorCode,
    message: string,
    /** Headers sent with it, e.g. `retry-after` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }

  /** The error body every simulator error is sent with. */
  toBody(): { error: { code: SimulatorErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } }
  }
}

export const invalid = (message: string) => new SimulatorError(400, 'invalid_request', message)
export const notFound = (message: string) => new SimulatorError(404, 'not_found', message)
export const conflict = (message: string) => new SimulatorError(409, 'conflict', message)
export const invalidTransition = (message: string) => new SimulatorError(409, 'invalid_transition', message)
