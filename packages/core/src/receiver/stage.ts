import type { Attempt } from '../awaitable.js'
import type { StoredReply } from '../dedup/store.js'
import type { RinghookError } from '../errors.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import type { Exchange } from './exchange.js'
import type { Lifecycle } from './lifecycle.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import { type Outlet, outletOf } from './outlet.js'
import type { Registry } from './registry.js'

/** Everything the stages and their loop use besides the exchange: the receiver's options, handlers and state. */
export interface Environment {
  readonly options: ResolvedOptions
  readonly registry: Registry
  /** Open or closing, and what it counts for `close()`. */
  readonly state: Lifecycle
  /** Lines about refused requests, which strangers can send at will: rate-limited. */
  readonly refusals: LimitedLog
  /** The configured secrets as a resolver's answer, made once rather than per delivery. */
  readonly staticSecrets: Attempt<readonly string[]> | undefined
  /** Where answered deliveries leave the pipeline (instrumentation, capture), when anything listens. */
  readonly outlet: Outlet | undefined
  /** Whether the secret resolver's failure was logged: once per receiver, not once per delivery. */
  secretWarned: boolean
}

/** The environment of a receiver's deliveries, made once. */
export function environment(options: ResolvedOptions, registry: Registry, state: Lifecycle): Environment {
  return {
    options,
    registry,
    state,
    refusals: new LimitedLog(options.logger, options.logLimit, options.now),
    staticSecrets: options.staticSecrets ? Object.freeze({ ok: true, value: options.staticSecrets }) : undefined,
    outlet: outletOf(options),
    secretWarned: false,
  }
}

/** What a stage returns once it recorded the delivery's answer: no later stage runs. */
export const ANSWERED: unique symbol = Symbol('answered')
export type Answered = typeof ANSWERED

/**
 * One step of a delivery's way. `start` begins its work on what the stage before gave (or answers a refusal
 * that needs no work); the loop waits for a promise, then calls `judge` once with the result (`waited`: whether
 * it was a promise), which gives the next stage's input, the answer, or a promise of either (reporting first).
 * A stage with `atDeadline` has its waited-for work raced against `deadlineMs` by the loop: if the deadline
 * passes first, `atDeadline` records the answer, which goes out; the work goes on and is judged when it settles.
 * Properties, not methods: so the order check below is strict about inputs.
 */
export interface Stage<In, Work, Out> {
  readonly start: (exchange: Exchange, env: Environment, input: In) => Work | PromiseLike<Work> | Answered
  readonly judge: (exchange: Exchange, env: Environment, result: Work, input: In, waited: boolean) => Verdict<Out>
  readonly atDeadline?: (exchange: Exchange, env: Environment) => void
}

// A judgement that reports first returns a native promise: asked with `instanceof`, as Hono asks a handler's result.
type Verdict<Out> = Out | Answered | Promise<Out | Answered>

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

/** Any stage that takes `In`, whatever it works on and gives. */
// biome-ignore lint/suspicious/noExplicitAny: what a stage works on is its own (it is both given and returned)
type Taking<In> = Stage<In, any, unknown>

type OutputOf<S> = S extends Stage<infer _In, infer _Work, infer Out> ? Out : never

/** Each stage typed as taking what the one before gives; after the last, nothing may be left to take. */
type Chain<S extends readonly unknown[], In> = S extends readonly [infer First, ...infer Rest]
  ? readonly [Taking<In>, ...Chain<Rest, OutputOf<First>>]
  : [In] extends [never]
    ? readonly []
    : readonly ['the last stage must answer every delivery']

/** The stages, checked to take nothing first, each what the one before gives, and to answer last; then erased. */
export function inOrder<const S extends readonly Taking<never>[]>(
  ...stages: S & Chain<S, undefined>
): readonly LoopStage[] {
  return stages as unknown as readonly LoopStage[]
}
