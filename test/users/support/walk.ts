import type { Simulator } from '@ringhook/simulator'

type Place = 'inactive' | 'active' | 'passive' | 'uninstalled'
type Step = 'activate' | 'passive' | 'deactivate' | 'uninstall' | 'reinstall'

// What the spec's lifecycle allows from each place (passive only from active, control apps).
const NEXT: Record<Place, readonly Step[]> = {
  inactive: ['activate', 'uninstall'],
  active: ['passive', 'deactivate', 'uninstall', 'passive'],
  passive: ['activate', 'deactivate', 'uninstall'],
  uninstalled: ['reinstall'],
}
const AFTER: Record<Step, Place> = {
  activate: 'active',
  passive: 'passive',
  deactivate: 'inactive',
  uninstall: 'uninstalled',
  reinstall: 'inactive',
}

/** A small seeded generator (mulberry32), so a failing walk can be walked again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The installs of a walk: each user's id and where it stands. */
export interface Walkers {
  readonly installs: Array<{ userId: string; userAppId: string; place: Place }>
}

/**
 * Walks `count` users in groups of `group` (each group's webhooks settled before the next starts, so
 * the connections at once stay within what one listening socket queues): each installs the app, then
 * takes `steps` random lifecycle steps.
 */
export async function walkUsers(
  sim: Simulator,
  appId: string,
  options: { count: number; group: number; steps: number; seed: number; midway?: () => Promise<void> },
): Promise<void> {
  const random = seeded(options.seed)
  for (let done = 0; done < options.count; done += options.group) {
    const walkers = await installAll(sim, appId, Math.min(options.group, options.count - done))
    await walk(sim, appId, walkers, options.steps, random)
    // Halfway, while this group's deliveries are in flight: what the test does to the receivers.
    if (done < options.count / 2 && done + options.group >= options.count / 2) await options.midway?.()
    await sim.idle()
  }
}

/** Creates `count` users and installs the app for each (webhooks sent, not awaited). */
export async function installAll(sim: Simulator, appId: string, count: number): Promise<Walkers> {
  const installs: Walkers['installs'] = []
  for (let i = 0; i < count; i++) {
    const user = sim.users.create({ name: `walker ${i}` })
    const { install } = await sim.install(appId, user.id)
    installs.push({ userId: user.id, userAppId: install.user_app_id, place: 'inactive' })
  }
  return { installs }
}

/**
 * Walks every install `steps` random lifecycle steps: activate, passive, deactivate, uninstall, and
 * reinstall under the same user_app_id. Users walk side by side, each one's steps in order.
 */
export async function walk(sim: Simulator, appId: string, walkers: Walkers, steps: number, random: () => number) {
  for (let round = 0; round < steps; round++) {
    await Promise.all(
      walkers.installs.map(async (install) => {
        const options = NEXT[install.place]
        const step = options[Math.floor(random() * options.length)] as Step
        if (step === 'reinstall') await sim.install(appId, install.userId, { user_app_id: install.userAppId })
        else if (step === 'activate') await sim.activate(install.userAppId)
        else if (step === 'passive') await sim.passive(install.userAppId)
        else if (step === 'deactivate') await sim.deactivate(install.userAppId)
        else await sim.uninstall(install.userAppId)
        install.place = AFTER[step]
      }),
    )
  }
}
