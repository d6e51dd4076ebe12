import { useEffect, useState } from 'preact/hooks'
import type { Vibe } from '../contract.js'

/** The spec's display time of a Ring UI notification. */
export const RING_UI_MS = 5000

interface RingToastProps {
  vibe: Vibe | undefined
  appName: string
}

/** The 5-second Ring UI notification (app name and message) of a vibe sent with `show_ring_ui_notif`. */
export function RingToast({ vibe, appName }: RingToastProps) {
  const [shown, setShown] = useState<Vibe | undefined>()

  useEffect(() => {
    if (!vibe?.show_ring_ui_notif || !vibe.message) return
    setShown(vibe)
    const timer = setTimeout(() => setShown(undefined), RING_UI_MS)
    return () => clearTimeout(timer)
  }, [vibe])

  // The live region stays in the page so screen readers announce what appears in it.
  return (
    <div class="toast-slot" role="status" aria-live="polite">
      {shown && (
        <div class="toast">
          <span class="toast__app">{appName}</span>
          <span class="toast__message">{shown.message}</span>
          <span class="toast__timer" aria-hidden="true" />
        </div>
      )}
    </div>
  )
}
