// The service answers 404 for a user it does not know (spec: GET users/:user_app_id): the app's
// refresh of that user reads it as uninstalled, through the real client and the simulator's API.
import { randomUUID } from 'node:crypto'
import { createUserStates } from '@ringhook/users'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Service, startService } from './support/service.js'

let service: Service

beforeAll(async () => {
  service = await startService()
})
afterAll(async () => {
  await service?.sim.close()
})

describe('a user the service answers 404 for', () => {
  it('is uninstalled by refreshUser, with no error', async () => {
    const errors: unknown[] = []
    const users = createUserStates({
      client: service.client(),
      appId: service.appId,
      onError: (error) => errors.push(error),
    })
    // The app kept the user from a webhook; the service has no such install.
    const gone = randomUUID()
    const at = new Date(Date.now() - 60_000).toISOString()
    await users.apply({ event: 'app.activated', user_app_id: gone, app_id: service.appId, timestamp: at, data: {} })

    const view = await users.refreshUser(gone)
    expect(view).toMatchObject({ userAppId: gone, state: 'uninstalled', source: 'api', uncertain: false })
    expect(await users.count()).toEqual({ active: 0, passive: 0, inactive: 0 })
    expect(errors).toEqual([])
    users.close()
  })
})
