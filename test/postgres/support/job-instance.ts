// A queue worker's job in a process of its own (started with fork() by functions.test.ts): runOnce
// writes one row in the job's transaction, and the process kills itself with SIGKILL where
// RINGHOOK_KILL_AT says, as a worker's host dies: after the write, or after the commit (before the
// queue could record the job as done, so it would run again).
import { runOnce } from '@ringhook/postgres'
import pg from 'pg'
import { SHARED_POSTGRES } from './postgres.js'

const { RINGHOOK_PG_TABLE: table, RINGHOOK_PG_EFFECTS: effects, RINGHOOK_JOB_KEY: key } = process.env
const killAt = process.env.RINGHOOK_KILL_AT
if (!table || !effects || !key) throw new Error('job-instance.ts is started by functions.test.ts')

const pool = new pg.Pool({ connectionString: SHARED_POSTGRES, max: 1 })
await runOnce(
  pool,
  key,
  async (tx) => {
    await tx.query(`INSERT INTO ${effects} (job) VALUES ($1)`, [key])
    if (killAt === 'write') process.kill(process.pid, 'SIGKILL')
  },
  { table },
)
if (killAt === 'commit') process.kill(process.pid, 'SIGKILL')
await pool.end()
