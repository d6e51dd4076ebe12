/**
 * `receiver.handle()` in a process of its own, for callgrind (src/callgrind.ts): the micro bench's
 * acknowledged delivery (receiverContenders), on this checkout's core or, given a folder, another
 * built checkout's. Told `{ count }`, it handles that many deliveries, one after another as the
 * micro bench does, and answers `done`; between runs it waits, so the parent can zero and dump the
 * counters around exactly the deliveries it asked for.
 */
import { againstKit } from '../against.js'
import { receiverContenders } from './contenders.js'

export type HandleChildMessage = { type: 'ready' } | { type: 'done' } | { type: 'error'; message: string }

const send = (message: HandleChildMessage): void => void process.send?.(message)
const root = process.argv[2]

try {
  const kit = root ? await againstKit(root) : undefined
  const [acknowledged] = receiverContenders(kit)
  const operation = await (acknowledged as NonNullable<typeof acknowledged>).setup()
  process.on('message', async ({ count }: { count: number }) => {
    try {
      for (let i = 0; i < count; i++) await operation()
      send({ type: 'done' })
    } catch (error) {
      send({ type: 'error', message: String(error) })
    }
  })
  send({ type: 'ready' })
} catch (error) {
  send({ type: 'error', message: String(error) })
}
