import type { App, Install, Notification, UserState } from '@ringhook/simulator/control-api'
import type { LifecycleAction } from '../api.js'
import { useControls } from '../controls.js'
import { gestureLabel } from '../format.js'
import { Group } from './Group.js'
import { Notifications } from './Notifications.js'
import { Switch } from './Switch.js'

interface InstallCardProps {
  install: Install
  app: App | undefined
  gestureTypes: string[]
  notifications: Notification[]
  messageOf: (eventId: string) => string | null
}

const LIFECYCLE: { action: LifecycleAction; label: string; from: UserState[] | 'any' }[] = [
  { action: 'activate', label: 'Activate', from: ['inactive', 'passive'] },
  { action: 'passive', label: 'Passive', from: ['active'] },
  { action: 'deactivate', label: 'Deactivate', from: ['active', 'passive'] },
  { action: 'uninstall', label: 'Uninstall', from: 'any' },
]

/** The companion app's view of one installed app: its lifecycle, its switches, the gestures to send it. */
export function InstallCard({ install, app, gestureTypes, notifications, messageOf }: InstallCardProps) {
  const { api, act } = useControls()
  const id = install.user_app_id
  const name = app?.name ?? install.app_id
  const type = app?.type ?? 'control'
  // Only control and device apps receive gestures (spec: gesture events).
  const receivesGestures = type === 'control' || type === 'device'
  const patch = (change: Parameters<typeof api.updateInstall>[1]) => act(() => api.updateInstall(id, change))

  return (
    <article class="install" aria-label={`${name} app`}>
      <header class="install__head">
        <h3>{name}</h3>
        <span class="tag">{type.replaceAll('_', ' ')}</span>
        <span class={`tag tag--${install.state}`}>{install.state}</span>
      </header>
      <p class="install__meta">
        <code>{id}</code>
        {app?.webhook_url ? (
          <>
            {' → '}
            <code>{app.webhook_url}</code>
          </>
        ) : (
          ' · no webhook URL'
        )}
      </p>

      <Group legend="Lifecycle">
        {LIFECYCLE.filter(({ action }) => action !== 'passive' || type === 'control').map(({ action, label, from }) => (
          <button
            key={action}
            type="button"
            disabled={from !== 'any' && !from.includes(install.state)}
            onClick={() => act(() => api.lifecycle(id, action))}
          >
            {label}
          </button>
        ))}
      </Group>

      <Group legend="Permissions and barriers" class="switches">
        <Switch
          label="Vibes"
          checked={install.permissions.vibes}
          onChange={(vibes) => patch({ permissions: { vibes } })}
        />
        <Switch
          label="Gesture forwarding"
          checked={install.permissions.gestures}
          onChange={(gestures) => patch({ permissions: { gestures } })}
        />
        <Switch label="Muted" checked={install.muted} onChange={(muted) => patch({ muted })} />
        <Switch
          label="Priority slot"
          checked={install.priority_slot}
          onChange={(priority_slot) => patch({ priority_slot })}
        />
      </Group>

      {receivesGestures && (
        <Group legend="Gestures">
          {gestureTypes.map((gesture) => (
            <button
              key={gesture}
              type="button"
              class="gesture"
              disabled={install.state !== 'active'}
              onClick={() => act(() => api.gesture(id, gesture))}
            >
              {gestureLabel(gesture)}
            </button>
          ))}
          {install.state !== 'active' && <span class="hint">Activate to send gestures.</span>}
        </Group>
      )}

      <Notifications notifications={notifications} messageOf={messageOf} />
    </article>
  )
}
