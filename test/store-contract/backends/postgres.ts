// The Postgres stores, as each contract takes them, on the shared Postgres in tables of their own.
// Each "instance" holds a pool of its own, as instances in separate processes would.
import {
  createPostgresInbox,
  createPostgresStore,
  migrate,
  migrateUserStates,
  type PostgresInbox,
  postgresCaptureSink,
  postgresUserStore,
  readPostgresCaptures,
} from '@ringhook/postgres'
import type { UserStore } from '@ringhook/users'
import type pg from 'pg'
import { connectPostgres, dropTable, freshTable, uniqueTable } from '../../postgres/support/postgres.js'
import { poll } from '../../redis/support/poll.js'
import type { CaptureSinkKind } from '../capture-sink-contract.js'
import type { DedupStoreKind } from '../dedup-store-contract.js'
import type { UserStoreKind } from '../user-state-store-contract.js'

/** Pools on the shared Postgres, one per instance, and the tables made through them. */
async function openPostgres(pools: number, max: number) {
  // A name of its own on every connection, to tell its sessions among the shared server's.
  const name = uniqueTable('contract')
  const opened = await Promise.all(
    Array.from({ length: pools }, () => connectPostgres({ max, application_name: name })),
  )
  const tables: string[] = []
  const first = opened[0] as pg.Pool
  return {
    pool: (i: number) => opened[i % pools] as pg.Pool,
    /** Resolves once one of these connections waits for a lock another holds. */
    untilWaiting: () =>
      poll('a connection waiting for a lock', async () => {
        const { rows } = await first.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [name],
        )
        return rows.length > 0 || undefined
      }).then(() => {}),
    /** Remembers a table to drop at the end. */
    made: (table: string) => {
      tables.push(table)
      return table
    },
    close: async () => {
      for (const table of tables) await dropTable(first, table)
      await Promise.all(opened.map((pool) => pool.end()))
    },
  }
}

// On a loaded machine, opening a pool's first connections together can take longer than the default second.
const patient = { queryTimeoutMs: 15_000 }

export const postgresDedup: DedupStoreKind = {
  name: 'postgres',
  open: async () => {
    const postgres = await openPostgres(2, 20)
    const table = postgres.made(await freshTable(postgres.pool(0), 'contract'))
    return {
      pair: () => [
        createPostgresStore({ pool: postgres.pool(0), table, ...patient }),
        createPostgresStore({ pool: postgres.pool(1), table, ...patient }),
      ],
      close: postgres.close,
    }
  },
}

// The contract's own calls, with no handler in between: each claim's transaction commits in
// complete, rolls back in release, or lapses by Postgres' idle-in-transaction timeout.
export const postgresInboxDedup: DedupStoreKind = {
  name: 'postgres inbox',
  open: async () => {
    // Each test's claims may hold a connection until the suite ends, hence the room.
    const postgres = await openPostgres(2, 40)
    const table = postgres.made(await freshTable(postgres.pool(0), 'contract_inbox'))
    const inboxes: PostgresInbox[] = []
    return {
      pair: () => {
        const pair = [
          createPostgresInbox({ pool: postgres.pool(0), table, ...patient }),
          createPostgresInbox({ pool: postgres.pool(1), table, ...patient }),
        ] as const
        inboxes.push(...pair)
        return [...pair]
      },
      close: async () => {
        await Promise.all(inboxes.map((inbox) => inbox.close()))
        await postgres.close()
      },
    }
  },
}

export const postgresUsers: UserStoreKind = {
  name: 'postgres',
  open: async () => {
    const postgres = await openPostgres(3, 10)
    return {
      instances: async (count) => {
        const table = postgres.made(uniqueTable('contract_users'))
        await migrateUserStates(postgres.pool(0), { table })
        return Array.from(
          { length: count },
          (_, i) => postgresUserStore({ pool: postgres.pool(i), table }) as UserStore<unknown>,
        )
      },
      transaction: async (work, end) => {
        const client = await postgres.pool(0).connect()
        try {
          await client.query('BEGIN')
          await work(client)
          await client.query(end === 'commit' ? 'COMMIT' : 'ROLLBACK')
          client.release()
        } catch (error) {
          // Not given back to the pool inside a transaction that failed.
          client.release(error instanceof Error ? error : true)
          throw error
        }
      },
      untilWaiting: postgres.untilWaiting,
      close: postgres.close,
    }
  },
}

export const postgresCaptures: CaptureSinkKind = {
  name: 'postgres',
  open: async () => {
    const postgres = await openPostgres(1, 4)
    // The captures table's columns, from `migrate`: each test copies them into a table of its own.
    await migrate(postgres.pool(0))
    return {
      fresh: async () => {
        const table = postgres.made(uniqueTable('contract_captures'))
        await postgres.pool(0).query(`CREATE TABLE ${table} (LIKE ringhook_captures INCLUDING ALL)`)
        return {
          sink: postgresCaptureSink({ pool: postgres.pool(0), table }),
          read: () => readPostgresCaptures({ pool: postgres.pool(0), table }),
        }
      },
      close: postgres.close,
    }
  },
}
