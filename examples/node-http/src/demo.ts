// The kit's main job in one run: start the example receiver, deliver a signed gesture the way
// the service does, and show the vibe that comes back.
import type { AddressInfo } from 'node:net'
import { signWebhook } from '@ringhook/core'
import { createApp } from './app.js'

const secret = 'whsec_demo_secret'
const { server } = createApp(secret)
server.listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`

const payload = {
  event: 'gesture',
  gesture_type: 'double_tap',
  user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
  app_id: 'app_demo',
  timestamp: new Date().toISOString(),
  data: {},
}
const body = JSON.stringify(payload)
const { headers } = await signWebhook({ secret, body })
console.log(`→ POST ${url}  gesture ${payload.gesture_type}`)
const response = await fetch(url, { method: 'POST', headers, body })
const reply = await response.json()
console.log(`← ${response.status}`, JSON.stringify(reply))
server.close()

const ok = response.status === 200 && reply?.success === true && Array.isArray(reply?.vibe?.sequence)
console.log(ok ? '✔ the gesture was verified, handled and answered with a vibe' : '✘ unexpected reply')
process.exit(ok ? 0 : 1)
