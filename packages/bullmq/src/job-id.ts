import { createHash } from 'node:crypto'

/**
 * The job id of a delivery: a hash of its dedup key (`context.delivery.key`). The same event
 * always gets the same id, so a service retry, or a copy reaching another web process, cannot
 * enqueue a second job while the first is kept. Hashed because BullMQ ids must not contain ':'
 * (the key does) and must not look like its own numeric ids, and because the key's format may change.
 *
 * @example jobIdFor(context.delivery.key) // 'rh-3f1c…' (64 hex digits after the prefix)
 */
export function jobIdFor(deliveryKey: string): string {
  return `rh-${createHash('sha256').update(deliveryKey).digest('hex')}`
}
