import type { FaultName, FaultProfile, FaultSettings } from '@ringhook/simulator/control-api'
import { useEffect, useState } from 'preact/hooks'
import { useControls } from '../controls.js'

// The names as the simulator defines them (FAULT_NAMES, FAULT_PROFILES); the page only sends them back.
const FAULTS: readonly FaultName[] = [
  'duplicate',
  'lost_ack',
  'slow',
  'reorder',
  'same_second',
  'skew_within',
  'skew_beyond',
  'rotation',
  'burst',
]
const PROFILES: readonly FaultProfile[] = ['none', 'flaky-network', 'reorder', 'rotation', 'clock-skew', 'chaos']

/**
 * The service's bad days: a profile by probability, or one fault on the next delivery it applies to.
 * `injected` counts the faults seen in the log: each one may have used up a queued fault, so the
 * settings are read again.
 */
export function Faults({ injected }: { injected: number }) {
  const { api, act } = useControls()
  const [settings, setSettings] = useState<FaultSettings | undefined>()
  useEffect(() => {
    if (injected >= 0) api.faults().then(setSettings, () => {})
  }, [api, injected])
  const apply = (work: () => Promise<FaultSettings>) => act(async () => setSettings(await work()))
  return (
    <section class="faults" aria-labelledby="faults-heading">
      <h2 id="faults-heading">Faults</h2>
      <label for="fault-profile">Profile</label>{' '}
      <select
        id="fault-profile"
        value={settings?.profile ?? 'none'}
        onChange={(event) => apply(() => api.setProfile(event.currentTarget.value as FaultProfile))}
      >
        {PROFILES.map((profile) => (
          <option key={profile} value={profile}>
            {profile}
          </option>
        ))}
      </select>
      <p class="faults__next">
        On the next delivery:{' '}
        {FAULTS.map((fault) => (
          <button key={fault} type="button" onClick={() => apply(() => api.nextFault(fault))}>
            {fault.replace('_', ' ')}
          </button>
        ))}
      </p>
      <p class="faults__queued" aria-live="polite">
        {settings && settings.next.length > 0 ? `Queued: ${settings.next.join(', ')}` : 'Nothing queued.'}
      </p>
    </section>
  )
}
