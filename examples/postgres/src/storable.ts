import { createHash } from 'node:crypto'

/**
 * A text as Postgres can store it: `text` holds any character but NUL (U+0000), which the kit
 * accepts in a payload's strings. Each NUL is written as U+FFFD, so the row keeps the rest.
 */
export function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text
}

/**
 * The key of one notification answer, as the kit names the delivery: its app and its event_id
 * (two apps may use one event_id). Stored as a SHA-256, so an id of any length or bytes fits a
 * primary key (a btree entry holds ~2.7 KB at most, and no NUL).
 */
export function answerKey(appId: string, eventId: string): string {
  return createHash('sha256')
    .update(JSON.stringify([appId, eventId]))
    .digest('hex')
}
