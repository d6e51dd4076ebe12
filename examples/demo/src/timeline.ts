// The demo's output: numbered steps, one aligned row per thing that happened (time since the
// start, who talked to whom, what), and a ✓ or ✗ per check. Colour only on a terminal.

export type Tone = 'plain' | 'dim' | 'bad'

export interface TimelineOptions {
  /** Where lines go, each with its newline. */
  write: (text: string) => void
  color: boolean
  now?: () => number
}

const CODES = {
  bold: 1,
  dim: 2,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
} as const
export type Style = keyof typeof CODES

/** Actors and their colours; anything else is printed plain. */
const ACTORS: Record<string, Style> = {
  Ada: 'yellow',
  ring: 'yellow',
  service: 'cyan',
  app: 'magenta',
  gateway: 'blue',
}

const ACTOR_WIDTH = 19

export class Timeline {
  readonly #write: (text: string) => void
  readonly #color: boolean
  readonly #now: () => number
  readonly #started: number
  #passed = 0
  #failed = 0

  constructor(options: TimelineOptions) {
    this.#write = options.write
    this.#color = options.color
    this.#now = options.now ?? (() => performance.now())
    this.#started = this.#now()
  }

  get passed(): number {
    return this.#passed
  }

  get failed(): number {
    return this.#failed
  }

  /** Milliseconds since the timeline started. */
  elapsed(): number {
    return this.#now() - this.#started
  }

  line(text = '', style?: Style): void {
    this.#write(`${style ? this.#paint(text, style) : text}\n`)
  }

  /** A numbered step and what the spec says should happen. */
  step(n: number, title: string, expects: string): void {
    this.line()
    this.line(`${String(n).padStart(2)}. ${this.#paint(title, 'bold')}`)
    this.line(`    ${this.#paint(`expect: ${expects}`, 'dim')}`)
  }

  /** Something that happened: `from → to` (or one actor), and what. */
  row(from: string, to: string | null, text: string, tone: Tone = 'plain'): void {
    const time = this.#paint(`+${(this.elapsed() / 1000).toFixed(3)}s`.padStart(8), 'dim')
    const plain = to ? `${from} → ${to}` : from
    const actors = to ? `${this.#actor(from)} → ${this.#actor(to)}` : this.#actor(from)
    const pad = ' '.repeat(Math.max(1, ACTOR_WIDTH - plain.length))
    const body = tone === 'dim' ? this.#paint(text, 'dim') : tone === 'bad' ? this.#paint(text, 'red') : text
    this.line(`    ${time}  ${actors}${pad}${body}`)
  }

  /** One check of a step against the spec. */
  check(ok: boolean, text: string, detail?: string): void {
    if (ok) this.#passed++
    else this.#failed++
    const mark = ok ? this.#paint('✓', 'green') : this.#paint('✗', 'red')
    const why = !ok && detail ? this.#paint(` (${detail})`, 'red') : ''
    this.line(`    ${mark} ${text}${why}`)
  }

  #actor(name: string): string {
    const style = ACTORS[name]
    return style ? this.#paint(name, style) : name
  }

  #paint(text: string, style: Style): string {
    return this.#color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text
  }
}

/** Colour when writing to a terminal, unless NO_COLOR is set; FORCE_COLOR forces it. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true
}
