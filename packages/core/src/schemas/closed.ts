/**
 * The fields a loose zod object names, without the index signature zod adds for the fields it keeps.
 *
 * The schemas stay loose at run time, so fields the service adds later still reach handlers; the
 * types stay closed, so a misspelt field (`event.gesture_typ`) is a compile error rather than
 * `undefined` on the ring. Read the extra fields through {@link withExtras}.
 */
export type Closed<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends readonly unknown[]
    ? { [K in keyof T]: Closed<T[K]> }
    : T extends object
      ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: Closed<T[K]> }
      : T

/** Fields the spec does not name, typed `unknown` so they must be checked before use. */
export type ExtraFields = { readonly [field: string]: unknown }

/** An event whose fields beyond the spec are reachable, at the top level and in `data`. */
export type WithExtras<E> = E extends { data: infer D }
  ? E &
      ExtraFields & {
        /** The event's `data`, with its fields beyond the spec reachable too. */
        readonly data: D & ExtraFields
      }
  : never

/**
 * The same event, typed so that fields the service sends beyond the spec can be read (as `unknown`).
 * The receiver keeps every field it gets; the event types name only the documented ones, so this
 * is the one explicit way to reach the others.
 *
 * @example
 * receiver.on('gesture', (event) => {
 *   const { intensity } = withExtras(event)
 *   if (typeof intensity === 'number') console.log('intensity', intensity)
 * })
 */
export function withExtras<E extends { data: object }>(event: E): WithExtras<E> {
  return event as WithExtras<E>
}
