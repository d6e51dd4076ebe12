import type { Vibe } from '@ringhook/simulator/control-api'
import { useEffect, useRef, useState } from 'preact/hooks'

/** The spec's display time of a Ring UI notification. */
export const RING_UI_MS = 5000

interface RingToastProps {
  /** The newest vibe felt; only those sent with `show_ring_ui_notif` and a message show a notification. */
  vibe: Vibe | undefined
  appName: (appId: string) => string
}

/** The 5-second Ring UI notification (app name and message) of a vibe sent with `show_ring_ui_notif`. */
export function RingToast({ vibe, appName }: RingToastProps) {
  const [shown, setShown] = useState<Vibe | undefined>()
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  // A later vibe without a notification leaves the current one its full 5 seconds.
  useEffect(() => {
    if (!vibe?.show_ring_ui_notif || !vibe.message) return
    clearTimeout(timer.current)
    setShown(vibe)
    timer.current = setTimeout(() => setShown(undefined), RING_UI_MS)
  }, [vibe])
  useEffect(() => () => clearTimeout(timer.current), [])

  // The live region stays in the page so screen readers announce what appears in it.
  return (
    <div class="toast-slot" role="status" aria-live="polite">
      {shown && (
        <div class="toast" key={shown.id}>
          <span class="toast__app">{appName(shown.app_id)}</span>
          <span class="toast__message">{shown.message}</span>
          <span class="toast__timer" aria-hidden="true" />
        </div>
      )}
    </div>
  )
}
