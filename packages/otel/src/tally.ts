import type { Attributes, Meter, MetricOptions, ObservableResult } from '@opentelemetry/api'

/**
 * A counter kept in this process and reported when metrics are collected, through an observable
 * counter. Adding is a Map increment: the SDK's per-measurement work (it hashes the attributes to
 * find their series) happens once per series at each collection instead of once per delivery.
 */
export class Tally {
  readonly #series = new Map<string, { attributes: Attributes; value: number }>()

  constructor(meter: Meter, name: string, options: MetricOptions) {
    meter.createObservableCounter(name, options).addCallback((result) => this.#report(result))
  }

  /** Counts one under `key`, which names the attributes: the same key must always come with the same ones. */
  add(key: string, attributes: () => Attributes): void {
    const series = this.#series.get(key)
    if (series) series.value += 1
    else this.#series.set(key, { attributes: attributes(), value: 1 })
  }

  #report(result: ObservableResult): void {
    for (const { attributes, value } of this.#series.values()) result.observe(value, attributes)
  }
}
