import type { Vibe } from '@ringhook/simulator/control-api'
import { useEffect, useState } from 'preact/hooks'
import { schedule } from '../sequence.js'

interface RingProps {
  /** The newest vibe felt while the page watched; each new one plays once. */
  vibe: Vibe | undefined
  off: boolean
}

/** The ring itself: lights up for each tap (short) and pulse (long), after each step's delay. */
export function Ring({ vibe, off }: RingProps) {
  const [active, setActive] = useState<'tap' | 'pulse' | undefined>()

  useEffect(() => {
    if (!vibe) return
    const timers = schedule(vibe.sequence).flatMap((step) => [
      setTimeout(() => setActive(step.type), step.start),
      setTimeout(() => setActive(undefined), step.end),
    ])
    return () => {
      for (const timer of timers) clearTimeout(timer)
      setActive(undefined)
    }
  }, [vibe])

  const label = off ? 'Ring (off)' : active ? `Ring: ${active}` : 'Ring'
  return (
    <div class={`ring${active ? ` ring--${active}` : ''}${off ? ' ring--off' : ''}`} role="img" aria-label={label}>
      <svg viewBox="0 0 100 100" aria-hidden="true">
        <circle class="ring__band" cx="50" cy="50" r="38" />
        <circle class="ring__gem" cx="50" cy="12" r="7" />
      </svg>
    </div>
  )
}
