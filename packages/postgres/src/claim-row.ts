import type { ClaimResult } from '@ringhook/core/store'
import { PostgresStoreError } from './errors.js'

/** What the claim statement returns. */
export interface ClaimRow {
  claimed: boolean
  status: number | null
  body: string | null
}

/** Reads the claim statement's row, rejecting anything else rather than guessing. */
export function toClaim(row: ClaimRow | undefined, token: string): ClaimResult {
  if (row?.claimed === true) return { state: 'claimed', token }
  if (row?.claimed === false && row.status === null) return { state: 'in_flight' }
  if (row?.claimed === false && Number.isInteger(row.status) && typeof row.body === 'string') {
    return { state: 'completed', reply: { status: row.status as number, body: row.body } }
  }
  throw new PostgresStoreError('claim', `unexpected row from the claim statement: ${JSON.stringify(row)}`)
}
