import type { ResponseLink } from './dedup-link.js'
import type { ResolvedOptions } from './options.js'
import type { Send } from './transport.js'

/** What every endpoint function is given. */
export interface ClientContext {
  send: Send
  options: ResolvedOptions
  link: ResponseLink | undefined
}

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call, including its retries and waits; it rejects with the signal's reason. */
  signal?: AbortSignal
}
