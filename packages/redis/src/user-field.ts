// How the users' store writes a `user_app_id`: the receiver takes any non-empty string, and not every
// string survives a Redis client as it is.

/** A UTF-16 surrogate without its pair: UTF-8 cannot spell it, so clients write U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Marks a field written as JSON; no id is written as it is with it first. */
const ESCAPE = '\u0000'

/**
 * The id as a hash field and set member. Redis holds any bytes (a NUL, any length), but a client
 * writes a string as UTF-8, which turns every lone surrogate into the same U+FFFD: two users would
 * become one. Such an id (and one that starts with the mark) is written as the mark and its JSON,
 * which spells each surrogate out.
 */
export function userField(userAppId: string): string {
  return userAppId.startsWith(ESCAPE) || LONE_SURROGATE.test(userAppId)
    ? `${ESCAPE}${JSON.stringify(userAppId)}`
    : userAppId
}

/** The id a field stands for. */
export function idOfUserField(field: string): string {
  return field.startsWith(ESCAPE) ? (JSON.parse(field.slice(1)) as string) : field
}
