/**
 * `receiver.handle()` in a process of its own, for callgrind (src/callgrind.ts): the micro bench's
 * acknowledged delivery (receiverContenders), on this checkout's core or, given a folder, another
 * built checkout's; or, given `micro:NAME`, the micro contender of that name (the hand-rolled
 * baseline, octokit's verifyAndReceive), so that their instructions compare with the receiver's. Told `{ count }`, it handles that many deliveries, one after another as the
 * micro bench does, and answers `done`; between runs it waits, so the parent can zero and dump the
 * counters around exactly the deliveries it asked for.
 */
import { againstKit } from '../against.js'
import { microContenders, receiverContenders } from './contenders.js'

export type HandleChildMessage = { type: 'ready' } | { type: 'done' } | { type: 'error'; message: string }

const send = (message: HandleChildMessage): void => void process.send?.(message)
const root = process.argv[2]

try {
  const named = root?.startsWith('micro:') ? microContenders.find((c) => c.name === root.slice(6)) : undefined
  if (root?.startsWith('micro:') && !named) throw new Error(`no micro contender named ${root.slice(6)}`)
  const kit = root && !named ? await againstKit(root) : undefined
  const [acknowledged] = receiverContenders(kit)
  const operation = await (named ?? (acknowledged as NonNullable<typeof acknowledged>)).setup()
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
