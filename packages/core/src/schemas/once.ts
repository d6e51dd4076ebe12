/** A value built on its first use and kept; `built` says whether that use has come. */
export interface Once<T> {
  (): T
  readonly built: boolean
}

/**
 * Builds a value on its first use. Core's schemas are built this way: building them all when core
 * was imported took ~9 ms on Bun and ~5 ms on Node, most of what importing core cost beyond
 * loading its code, and a receiver whose deliveries are valid needs none of them (./plans.generated.ts).
 */
export function once<T>(build: () => T): Once<T> {
  let built = false
  let value: T
  const get = (): T => {
    if (!built) {
      value = build()
      built = true
    }
    return value
  }
  return Object.defineProperty(get, 'built', { get: () => built }) as Once<T>
}
