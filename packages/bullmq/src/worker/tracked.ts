/** Counts work that runs in the background (failure reports) so that a shutdown can wait for it. */
export class Tracked {
  #running = 0
  #waiters: (() => void)[] = []

  track(work: Promise<unknown>): void {
    this.#running += 1
    const done = () => {
      this.#running -= 1
      if (this.#running === 0) for (const wake of this.#waiters.splice(0)) wake()
    }
    work.then(done, done)
  }

  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push(resolve))
  }
}
