/** Which events go to the queue: a list of names, or a test on the name. */
export type EventSelection = readonly string[] | ((name: string) => boolean)

/**
 * Every event except `gesture` (its vibe must be in the HTTP reply, so it is handled inline),
 * including events this version does not know yet.
 */
export const ALL_BUT_GESTURE = (name: string): boolean => name !== 'gesture'

export function selector(selection: EventSelection | undefined): (name: string) => boolean {
  if (selection === undefined) return ALL_BUT_GESTURE
  if (typeof selection === 'function') return selection
  const names = new Set(selection)
  return (name) => names.has(name)
}
