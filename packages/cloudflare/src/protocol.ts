import type { SqlValue } from './bindings.js'

/** What a store asks of an object: one operation of one of the three stores. */
export type Operation =
  | 'claim'
  | 'complete'
  | 'release'
  | 'apply'
  | 'get'
  | 'page'
  | 'count'
  | 'take'
  | 'pause'
  | 'remaining'
  | 'leave'
  | 'restore'

/** What an operation runs with inside the object: its database, its clock, and its alarm. */
export interface Table {
  exec(query: string, ...bindings: SqlValue[]): Record<string, SqlValue>[]
  /** The object's time for this operation (ms). */
  readonly now: number
  /** Something stored lapses at `at`: the object's alarm is to run by then to remove it. */
  expireAt(at: number): void
}

/** An operation as the object runs it: the arguments as sent (checked by the operation), its answer. */
export type Handler = (table: Table, args: unknown[]) => unknown

/**
 * A key as stored: its JSON text, so that whatever a key holds (a NUL, a lone surrogate) the stored
 * text is plain, well-formed UTF-8, and two keys stay two rows whatever SQLite's text handling does
 * with such characters (workerd's kept them apart as they were too; the tests check the result).
 */
export const storedKey = (key: string): string => JSON.stringify(key)

/** The key of a stored one. */
export const keyOf = (stored: SqlValue): string => JSON.parse(String(stored)) as string

/** `value` when it is a string, else a clear error (the object answers it as a failure). */
export function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`)
  return value
}

/** `value` when it is a finite number, else a clear error. */
export function num(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${what} must be a finite number`)
  return value
}

/** A ttl as a whole number of milliseconds, at least 1 (as Redis' PEXPIRE takes it). */
export const ttl = (value: unknown, what: string): number => Math.max(1, Math.ceil(num(value, what)))
