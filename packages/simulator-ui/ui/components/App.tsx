import type { Settings } from '@ringhook/simulator/control-api'
import { useMemo, useState } from 'preact/hooks'
import { type Api, SimError } from '../api.js'
import { type Controls, ControlsContext, useControls } from '../controls.js'
import { duration } from '../format.js'
import type { Model } from '../model.js'
import { type Connection, useSimulator } from '../use-simulator.js'
import { DeliveryLog } from './DeliveryLog.js'
import { Faults } from './Faults.js'
import { UserPanel } from './UserPanel.js'

const CONNECTION = { connecting: 'Connecting…', live: 'Live', offline: 'Offline' } as const

/** The whole page: a header, one panel per simulated user, and the delivery log. */
export function App({ api }: { api: Api }) {
  const { model, connection } = useSimulator(api)
  const [failure, setFailure] = useState<string | undefined>()
  const controls = useMemo<Controls>(
    () => ({
      api,
      act: (work) => {
        setFailure(undefined)
        work().catch((error: unknown) => setFailure(describe(error)))
      },
    }),
    [api],
  )
  const snapshot = model.snapshot

  return (
    <ControlsContext.Provider value={controls}>
      <header class="top">
        <h1>ringhook simulator</h1>
        <ConnectionState connection={connection} />
        {snapshot && <SettingsLine settings={snapshot.settings} />}
        {snapshot && <AddUser />}
      </header>
      <div class="failure" role="alert">
        {failure}
      </div>
      <main>
        {!snapshot && <p class="empty">Waiting for the simulator at {window.location.origin}…</p>}
        {snapshot?.users.length === 0 && <p class="empty">No users yet: add one above.</p>}
        {snapshot?.users.map((user) => (
          <UserPanel key={user.id} user={user} model={model} />
        ))}
        {snapshot && <Faults injected={injectedFaults(model)} />}
        <DeliveryLog model={model} />
      </main>
    </ControlsContext.Provider>
  )
}

function ConnectionState({ connection }: { connection: Connection }) {
  return (
    <p class={`connection connection--${connection}`} aria-live="polite">
      <span class="connection__dot" aria-hidden="true" />
      {CONNECTION[connection]}
    </p>
  )
}

function SettingsLine({ settings }: { settings: Settings }) {
  return (
    <p class="settings">
      API <code>{settings.api_url}</code>
      {settings.time_scale !== 1 && <> · time ×{settings.time_scale}</>} · retries after{' '}
      {settings.retry_delays_ms.map(duration).join(', ')}
    </p>
  )
}

function AddUser() {
  const { api, act } = useControls()
  const [name, setName] = useState('')
  return (
    <form
      class="add-user"
      onSubmit={(event) => {
        event.preventDefault()
        act(() => api.createUser(name.trim() || 'New user'))
        setName('')
      }}
    >
      <label for="new-user">New user</label>
      <input id="new-user" value={name} placeholder="Name" onInput={(e) => setName(e.currentTarget.value)} />
      <button type="submit">Add user</button>
    </form>
  )
}

const injectedFaults = (model: Model) =>
  Object.values(model.deliveries).reduce((sum, delivery) => sum + delivery.faults.length, 0)

function describe(error: unknown): string {
  if (error instanceof SimError) return `${error.code}: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
