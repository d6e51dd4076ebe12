// The bench's Worker: runs a loop of store operations inside workerd, against the package's objects,
// and answers how long it took. The loop runs here so that the figure is the store's and the
// objects', not that of a round trip from Node into workerd.
import { createDurableStore, durableUserStore, type ObjectNamespace } from '@ringhook/cloudflare'

export { RinghookObject } from '@ringhook/cloudflare'

interface Env {
  RINGHOOK: ObjectNamespace
}

const REPLY = { status: 200, body: '{"success":true,"vibe":{"sequence":[{"type":"tap"}]}}' }

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url)
    const n = Number(url.searchParams.get('n'))
    const inFlight = Number(url.searchParams.get('inFlight'))
    const shards = Number(url.searchParams.get('shards'))
    const run = crypto.randomUUID()
    const prefix = `bench:${run}:`
    const dedup = createDurableStore({ namespace: env.RINGHOOK, shards, prefix, timeoutMs: 30_000 })
    const users = durableUserStore({ namespace: env.RINGHOOK, shards, prefix, timeoutMs: 30_000 })
    // The read-only path: each key completed once before the clock starts, then claimed again.
    if (url.pathname === '/duplicate') {
      for (let i = 0; i < Math.min(n, inFlight); i++) {
        const claim = await dedup.claim(`dup-${i}`, 15_000)
        if (claim.state === 'claimed') await dedup.complete(`dup-${i}`, claim.token, REPLY, 900_000)
      }
    }
    const operation =
      url.pathname === '/duplicate'
        ? async (i: number) => {
            const claim = await dedup.claim(`dup-${i % inFlight}`, 15_000)
            if (claim.state !== 'completed') throw new Error(`duplicate ${i}: ${claim.state}`)
          }
        : url.pathname === '/claim'
          ? async (i: number) => {
              const key = `v2:["gesture","app_bench","u-${i}","${run}"]`
              const claim = await dedup.claim(key, 15_000)
              if (claim.state !== 'claimed') throw new Error(`claim ${i}: ${claim.state}`)
              await dedup.complete(key, claim.token, REPLY, 900_000)
            }
          : async (i: number) => {
              await users.apply(
                `user-${i}`,
                { at: 1_795_000_000_000 + i, coarse: false, cause: 1, uncertain: false },
                1000,
              )
            }
    let next = 0
    const worker = async () => {
      while (next < n) await operation(next++)
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: inFlight }, worker))
    return Response.json({ n, ms: performance.now() - started })
  },
}
