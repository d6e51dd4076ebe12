import { Redis, type RedisOptions } from 'ioredis'

/** An ioredis client, or the options to create one. */
export type Connection = Redis | RedisOptions

/** The client BullMQ is given, and whether it is ours to close. */
export interface OwnedConnection {
  client: Redis
  owned: boolean
}

/**
 * For the queue (the web process): the app's client as it is, or one made from options that
 * fail a command after one failed reconnection instead of holding it through an outage.
 */
export function producerConnection(connection: Connection): OwnedConnection {
  if (connection instanceof Redis) return { client: connection, owned: false }
  return { client: new Redis({ maxRetriesPerRequest: 1, ...connection }), owned: true }
}

/**
 * For a worker: options, from which BullMQ makes the connections it owns and closes. It blocks on
 * one while waiting for jobs, which needs `maxRetriesPerRequest: null`; an app's client is read
 * for its settings only, and keeps them.
 */
export function workerConnection(connection: Connection): RedisOptions {
  const options = connection instanceof Redis ? connection.options : connection
  return { ...options, maxRetriesPerRequest: null }
}
