import type { Vibe } from '@ringhook/simulator/control-api'
import { clock, duration } from '../format.js'
import { schedule } from '../sequence.js'

interface TimelineProps {
  vibes: Vibe[]
  appName: (appId: string) => string
}

const SOURCE = { trigger: 'trigger', gesture_reply: 'gesture reply' } as const
const STATUS = { delivered: 'felt', not_enabled: 'not enabled', rejected: 'rejected' } as const

/** What reached the ring, newest first: each step with the pause before it, and why a vibe was not felt. */
export function Timeline({ vibes, appName }: TimelineProps) {
  if (vibes.length === 0) return <p class="empty">No vibes yet.</p>
  return (
    <ol class="timeline" aria-label="Vibes at the ring, newest first">
      {vibes.map((vibe) => (
        <li key={vibe.id} class={`vibe vibe--${vibe.status}`}>
          <div class="vibe__head">
            <time dateTime={vibe.at}>{clock(vibe.at)}</time>
            <strong>{appName(vibe.app_id)}</strong>
            <span class="tag">{SOURCE[vibe.source]}</span>
            <span class={`tag tag--${vibe.status}`}>{STATUS[vibe.status]}</span>
          </div>
          <Steps vibe={vibe} />
          {vibe.message && (
            <p class="vibe__message">
              “{vibe.message}”{vibe.show_ring_ui_notif ? ' · Ring UI notification' : ''}
            </p>
          )}
          {vibe.rule && <p class="vibe__rule">Not felt: {vibe.rule}</p>}
        </li>
      ))}
    </ol>
  )
}

// One pixel per 10 ms keeps the longest sequence (3 × 2000 ms pauses) inside the card.
const px = (ms: number) => `${Math.max(4, Math.round(ms / 10))}px`

function Steps({ vibe }: { vibe: Vibe }) {
  return (
    <ol class="steps" aria-label="Sequence">
      {schedule(vibe.sequence).map((step, index) => (
        <li key={`${vibe.id}-${index}`} class="step">
          <span class="step__delay" style={{ width: px(step.delay) }}>
            {duration(step.delay)}
          </span>
          <span class={`step__mark step__mark--${step.type}`} style={{ width: px(step.end - step.start) }}>
            {step.type}
          </span>
        </li>
      ))}
    </ol>
  )
}
