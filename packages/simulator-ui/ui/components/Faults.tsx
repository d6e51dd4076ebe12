import type { FaultProfile, FaultSettings } from '@ringhook/simulator/control-api'
import { useEffect, useState } from 'preact/hooks'
import type { FaultKinds } from '../api.js'
import { useControls } from '../controls.js'

/** A profile's rates in words, e.g. `duplicate 20%, lost ack 20%`. */
const describeRates = (rates: FaultKinds['profiles'][FaultProfile]) =>
  Object.entries(rates)
    .map(([fault, rate]) => `${fault.replace('_', ' ')} ${Math.round((rate ?? 0) * 100)}%`)
    .join(', ') || 'no faults'

/**
 * The service's bad days: a profile by probability, or one fault on the next delivery it applies to.
 * `injected` counts the faults seen in the log: each one may have used up a queued fault, so the
 * settings are read again.
 */
export function Faults({ injected }: { injected: number }) {
  const { api, act } = useControls()
  // The faults and profiles as the simulator lists them: the page sends back only names it was given.
  const [kinds, setKinds] = useState<FaultKinds | undefined>()
  const [settings, setSettings] = useState<FaultSettings | undefined>()
  useEffect(() => {
    api.faultKinds().then(setKinds, () => {})
  }, [api])
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
        {Object.entries(kinds?.profiles ?? {}).map(([profile, rates]) => (
          <option key={profile} value={profile} title={describeRates(rates)}>
            {profile}
          </option>
        ))}
      </select>
      <p class="faults__next">
        On the next delivery:{' '}
        {(kinds?.faults ?? []).map((fault) => (
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
