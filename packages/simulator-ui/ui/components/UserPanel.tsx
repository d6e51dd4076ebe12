import type { App, Notification, User } from '@ringhook/simulator/control-api'
import { useState } from 'preact/hooks'
import { useControls } from '../controls.js'
import type { Model } from '../model.js'
import { Group } from './Group.js'
import { InstallCard } from './InstallCard.js'
import { Ring } from './Ring.js'
import { RingToast } from './RingToast.js'
import { Switch } from './Switch.js'
import { Timeline } from './Timeline.js'

interface UserPanelProps {
  user: User
  model: Model
}

const TIMELINE_LENGTH = 6
const ANSWERED_SHOWN = 2

/** Every notification still waiting for an answer, and the last few answered ones. */
function shownNotifications(all: Notification[], userAppId: string): Notification[] {
  const mine = all.filter((item) => item.user_app_id === userAppId)
  const answered = mine.filter((item) => item.status === 'responded').slice(-ANSWERED_SHOWN)
  return mine.filter((item) => item.status === 'pending' || answered.includes(item))
}

/** One person: their ring (what they feel and see) beside their companion app (one card per installed app). */
export function UserPanel({ user, model }: UserPanelProps) {
  const { api, act } = useControls()
  const snapshot = model.snapshot
  if (!snapshot) return null
  const apps = new Map(snapshot.apps.map((app) => [app.app_id, app]))
  const appName = (appId: string) => apps.get(appId)?.name ?? appId
  const installs = snapshot.installs.filter((install) => install.user_id === user.id)
  const vibes = model.vibes.filter((vibe) => vibe.user_id === user.id)
  const messageOf = (eventId: string) => vibes.find((vibe) => vibe.event_id === eventId)?.message ?? null
  const felt = model.felt[user.id]
  const notifications = Object.values(model.notifications)
  const headingId = `user-${user.id}`

  return (
    <section class="user" aria-labelledby={headingId}>
      <header class="user__head">
        <h2 id={headingId}>{user.name}</h2>
        <code>{user.id}</code>
      </header>
      <div class="user__body">
        <div class="user__ring">
          <Ring vibe={felt} off={user.ring_off} />
          <RingToast vibe={felt} appName={appName} />
          <Group legend="Ring and phone" class="switches">
            <Switch
              label="Ring off"
              checked={user.ring_off}
              onChange={(ring_off) => act(() => api.updateUser(user.id, { ring_off }))}
            />
            <Switch
              label="Companion app closed"
              checked={user.companion_closed}
              onChange={(companion_closed) => act(() => api.updateUser(user.id, { companion_closed }))}
            />
          </Group>
          <h3 class="subhead">Felt on the ring</h3>
          <Timeline vibes={vibes.slice(-TIMELINE_LENGTH).reverse()} appName={appName} />
        </div>
        <div class="user__apps">
          {installs.map((install) => (
            <InstallCard
              key={install.user_app_id}
              install={install}
              app={apps.get(install.app_id)}
              gestureTypes={snapshot.settings.gesture_types}
              notifications={shownNotifications(notifications, install.user_app_id)}
              messageOf={messageOf}
            />
          ))}
          <InstallForm
            userId={user.id}
            apps={snapshot.apps.filter((app) => !installs.some((i) => i.app_id === app.app_id))}
          />
        </div>
      </div>
    </section>
  )
}

/** Adds an app to this user's companion app: `app.installed`; the install starts inactive. */
function InstallForm({ userId, apps }: { userId: string; apps: App[] }) {
  const { api, act } = useControls()
  const [chosen, setChosen] = useState('')
  if (apps.length === 0) return null
  const appId = apps.some((app) => app.app_id === chosen) ? chosen : (apps[0]?.app_id ?? '')
  const selectId = `install-${userId}`
  return (
    <form
      class="install-form"
      onSubmit={(event) => {
        event.preventDefault()
        act(() => api.install(appId, userId))
      }}
    >
      <label for={selectId}>Install app</label>
      <select id={selectId} value={appId} onChange={(event) => setChosen(event.currentTarget.value)}>
        {apps.map((app) => (
          <option key={app.app_id} value={app.app_id}>
            {app.name}
          </option>
        ))}
      </select>
      <button type="submit">Install</button>
    </form>
  )
}
