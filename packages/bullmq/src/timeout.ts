/**
 * Settles with `work`, or rejects with `onTimeout()` once `ms` have passed. A failure of `work`
 * after that is swallowed here: the caller has already answered.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  work.catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
