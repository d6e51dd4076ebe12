import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Api } from './api.js'

/** What the components need to act: the control API, and `act` which reports a failed call on the page. */
export interface Controls {
  api: Api
  act: (work: () => Promise<unknown>) => void
}

export const ControlsContext = createContext<Controls | undefined>(undefined)

export function useControls(): Controls {
  const controls = useContext(ControlsContext)
  if (!controls) throw new Error('useControls() outside <ControlsContext.Provider>')
  return controls
}
