import type * as z from 'zod/mini'
import type { ResponseLink } from './dedup-link.js'
import type { ResolvedOptions } from './options.js'
import type { RequestSpec, Send } from './transport.js'

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

/** What a read names: the documented endpoint, the encoded path, the answer's schema and any query. */
export type ReadSpec<S extends z.ZodMiniType> = Pick<RequestSpec<S>, 'endpoint' | 'path' | 'schema' | 'query'>

/** A GET of the service's API: safe to repeat, so retried as a read, within the client's timeout. */
export function read<S extends z.ZodMiniType>(
  ctx: ClientContext,
  spec: ReadSpec<S>,
  options: CallOptions,
): Promise<z.output<S>> {
  return ctx.send({
    ...spec,
    method: 'GET',
    retry: 'read',
    timeoutMs: ctx.options.timeoutMs,
    signal: options.signal,
  })
}
