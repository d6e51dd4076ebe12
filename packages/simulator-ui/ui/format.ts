// Small formatters shared by the components.

/** `12:04:05.123`, local time: the log is read while it happens. */
export function clock(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const pad = (value: number, size = 2) => String(value).padStart(size, '0')
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
}

/** `300 ms`, `1.5 s`, `30 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms * 10) / 10} ms`
  return `${Math.round(ms / 100) / 10} s`
}

/** `double_tap` → `double tap`: gesture types come from the config, so any name is shown as it is. */
export function gestureLabel(type: string): string {
  return type.replaceAll('_', ' ')
}
