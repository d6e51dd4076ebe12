import type { Attempt } from '../awaitable.js'
import type { StoredReply } from '../dedup/store.js'
import type { RinghookError } from '../errors.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import type { Exchange } from './exchange.js'
import type { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import type { Outlet } from './outlet.js'
import type { Registry } from './registry.js'

/** What the pipeline asks of the receiver's lifecycle. */
export interface PipelineState {
  /** Whether the receiver is shutting down. */
  readonly closing: boolean
  /** Counts work that outlives its response (handlers past the deadline) until it settles. */
  track(work: Promise<unknown>): unknown
  /** Counts a delivery that is being answered asynchronously, until `end()`. */
  begin(): void
  /** Counts that delivery as answered. */
  end(): void
}

/** Everything the stages and their loop use besides the exchange: the receiver's options, handlers and state. */
export interface Environment {
  readonly options: ResolvedOptions
  readonly registry: Registry
  readonly state: PipelineState
  /** Lines about refused requests, which strangers can send at will: rate-limited. */
  readonly refusals: LimitedLog
  /** The configured secrets as a resolver's answer, made once rather than per delivery. */
  readonly staticSecrets: Attempt<readonly string[]> | undefined
  /** Where answered deliveries leave the pipeline (instrumentation, capture), when anything listens. */
  readonly outlet: Outlet | undefined
  /** Whether the secret resolver's failure was logged: once per receiver, not once per delivery. */
  secretWarned: boolean
}

/** What a stage returns once it recorded the delivery's answer: no later stage runs. */
export const ANSWERED: unique symbol = Symbol('answered')
export type Answered = typeof ANSWERED

/**
 * What a judgement returns when it answered before its work finished (the deadline passed): the
 * loop sends that answer, then, once `work` settles, calls the same judgement on its result and goes on.
 */
export class Later<W> {
  constructor(readonly work: PromiseLike<W>) {}
}

/**
 * One step of a delivery's way. `start` begins the stage's work on what the stage before gave; when
 * it returns a promise, the loop waits for it, then calls `judge` with the result. `judge` gives the
 * verdict: the next stage's input, or the answer (`ANSWERED`), a promise of one when it reports a
 * failure first, or {@link Later}. A refusal that needs no work is answered by `start` itself.
 *
 * Properties, not methods, so that the order check below is strict about inputs.
 */
export interface Stage<In, Work, Out> {
  readonly start: (exchange: Exchange, env: Environment, input: In) => Work | PromiseLike<Work> | Answered
  readonly judge: (
    exchange: Exchange,
    env: Environment,
    result: Work,
    input: In,
  ) => Out | Answered | Later<Work> | PromiseLike<Out | Answered>
}

// What flows between the stages. Brands, not wrappers: a body or an event passes as itself, and
// only the type says which stage vouched for it (so skipping `authenticate` does not compile).
declare const VOUCHED: unique symbol
type Vouched<T, By extends string> = T & { readonly [VOUCHED]: By }

/** A body whose signature and timestamp checked out. */
export type Authentic = Vouched<Uint8Array, 'authenticate'>
/** An event the payload schema accepted. */
export type ParsedEvent = WebhookEvent | UnknownEvent
/** An event whose dedup claim was taken (or, with `onStoreError: 'process'`, could not be). */
export type Admitted = Vouched<ParsedEvent, 'dedup'>
/** What the handlers earned: the reply to send and store, or every failure to report. */
export type HandlerOutcome = { ok: true; reply: StoredReply } | { ok: false; errors: RinghookError[] }

/** A stage as the loop holds it, once {@link inOrder} checked what each one takes. */
export type LoopStage = Stage<unknown, unknown, unknown>

/** Any stage that takes `In` (what it works on and gives aside). */
interface Taking<In> {
  readonly start: (exchange: Exchange, env: Environment, input: In) => unknown
  readonly judge: (exchange: Exchange, env: Environment, result: never, input: In) => unknown
}

type OutputOf<S> = S extends Stage<infer _In, infer _Work, infer Out> ? Out : never

/** Each stage typed as taking what the one before gives; after the last, nothing may be left to take. */
type Chain<S extends readonly unknown[], In> = S extends readonly [infer First, ...infer Rest]
  ? readonly [Taking<In>, ...Chain<Rest, OutputOf<First>>]
  : [In] extends [never]
    ? readonly []
    : readonly ['the last stage must answer every delivery']

/**
 * The stages, checked to be in an order that type-checks: the first takes nothing, each takes what
 * the one before it gives, the last answers every delivery. Past this check the loop holds them erased.
 */
export function inOrder<const S extends readonly Taking<never>[]>(
  ...stages: S & Chain<S, undefined>
): readonly LoopStage[] {
  return stages as unknown as readonly LoopStage[]
}
