// dynalite ships no types: what the tests use of it.
declare module 'dynalite' {
  import type { Server } from 'node:http'

  interface DynaliteOptions {
    /** Keeps the tables in this folder (LevelDB) rather than in memory. */
    path?: string
    /** How long a new table stays CREATING; 500 ms unless told. */
    createTableMs?: number
    deleteTableMs?: number
    updateTableMs?: number
  }
  export default function dynalite(options?: DynaliteOptions): Server
}
