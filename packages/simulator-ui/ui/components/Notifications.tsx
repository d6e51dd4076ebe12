import type { Notification, ResponseConfigKept } from '@ringhook/simulator/control-api'
import { useControls } from '../controls.js'
import { clock } from '../format.js'
import { Group } from './Group.js'

interface NotificationsProps {
  notifications: Notification[]
  /** The trigger's message, which the notification object does not repeat. */
  messageOf: (eventId: string) => string | null
}

/** Notifications asking the user something: their buttons answer as the companion app would. */
export function Notifications({ notifications, messageOf }: NotificationsProps) {
  const { api, act } = useControls()
  if (notifications.length === 0) return null
  return (
    <ul class="notifications" aria-label="Notifications">
      {notifications.map((notification) => (
        <li key={notification.event_id} class={`notification notification--${notification.status}`}>
          <p class="notification__message">{messageOf(notification.event_id) ?? 'Notification'}</p>
          <p class="notification__meta">
            {notification.response_mode} mode
            {notification.await === 'waiting' ? ' · the app is waiting' : ''}
            {notification.await === 'timeout' ? ' · the app stopped waiting' : ''}
          </p>
          {notification.status === 'pending' ? (
            <Group legend="Answer" hideLegend>
              {choices(notification.response_config).map((choice) => (
                <button
                  key={choice.response}
                  type="button"
                  aria-label={choice.name}
                  onClick={() => act(() => api.answer(notification.event_id, choice.response))}
                >
                  {choice.text}
                </button>
              ))}
            </Group>
          ) : (
            <p class="notification__answer">
              Answered <strong>{notification.response}</strong>
              {notification.responded_at ? ` at ${clock(notification.responded_at)}` : ''}
            </p>
          )}
        </li>
      ))}
    </ul>
  )
}

interface Choice {
  response: string
  text: string
  name: string
}

const DISMISS: Choice = { response: 'dismiss', text: 'Dismiss', name: 'Dismiss' }

function choices(config: ResponseConfigKept): Choice[] {
  if (config.type === 'yes_no_dismiss') {
    return [{ response: 'yes', text: 'Yes', name: 'Yes' }, { response: 'no', text: 'No', name: 'No' }, DISMISS]
  }
  if (config.type === 'emoji') {
    const options = config.options.map((option) => ({
      response: `emoji:${option.emoji}`,
      text: `${option.emoji} ${option.label}`,
      name: option.label || option.emoji,
    }))
    return [...options, DISMISS]
  }
  return [DISMISS]
}
