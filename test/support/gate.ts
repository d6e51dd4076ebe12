// A test waits on events, never on timers: a handler that must still be running when something
// happens is held on a gate the test opens once it has seen that thing.

/** A promise with its resolve function: holds a handler (or marks an event) until the test opens it. */
export interface Gate {
  readonly promise: Promise<void>
  open(): void
}

/** A closed gate. */
export function gate(): Gate {
  let open = () => {}
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open: () => open() }
}
