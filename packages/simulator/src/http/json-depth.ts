/**
 * How deep JSON may nest in what the simulator takes (a control API body, a loaded capture's
 * payload). Its own payloads nest a few levels; far deeper ones would overflow the stack of the
 * recursive `JSON.stringify` that answers and delivers them, which no handler could catch.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Whether JSON text nests arrays and objects deeper than `max`: counted over the text, without
 * recursion, so any depth is measured safely. Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      // A backslash escapes the next character, a quote among them.
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}
