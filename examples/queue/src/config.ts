/** What both processes read from the environment. */
export interface Config {
  redisUrl: string
  /** The BullMQ queue both processes share; also names the keys the worker writes. */
  queue: string
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return { redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379', queue: env.RINGHOOK_QUEUE ?? 'ringhook' }
}

/** Where the worker keeps what it did: the app's own data. */
export const keys = (queue: string) => ({
  answers: `example:${queue}:answers`,
  handled: `example:${queue}:handled`,
})
