/** Median of a list (the mean of the middle two for an even count). */
export const median = (values: readonly number[]): number => quantile(values, 0.5)

export const min = (values: readonly number[]): number => Math.min(...values)
export const max = (values: readonly number[]): number => Math.max(...values)

/** The value below which `p` percent of a sorted list falls (nearest rank). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] as number
}

/** The `q` quantile (0–1) of a list, linearly interpolated between the two values around it; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const position = (sorted.length - 1) * q
  const below = Math.floor(position)
  const low = sorted[below] as number
  const high = sorted[Math.ceil(position)] as number
  return low + (high - low) * (position - below)
}
