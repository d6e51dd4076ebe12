// C0 controls, DEL and C1 controls: ESC starts the sequences that clear the screen, move the cursor
// or retitle the window; CR and BS overwrite what was printed; 0x9b is a one-byte CSI on terminals
// that read C1 codes. Then the explicit bidirectional overrides, which reorder a line as displayed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it neutralises
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text as it may reach a terminal: every control character written as a visible `\u001b`-style
 * escape, except newline and tab unless `oneLine` (a field inside a log line must not start another).
 * Inside JSON text the escape is the JSON one, so `--json` lines stay valid and keep their data.
 */
export function printable(text: string, options: { oneLine?: boolean } = {}): string {
  return text.replace(CONTROL, (char) =>
    !options.oneLine && (char === '\n' || char === '\t')
      ? char
      : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
