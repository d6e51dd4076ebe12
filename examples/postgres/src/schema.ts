import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/** The example's own data, in Drizzle's schema: one row per gesture the app counted. */
export const gestures = pgTable('example_gestures', {
  id: serial('id').primaryKey(),
  userAppId: text('user_app_id').notNull(),
  gestureType: text('gesture_type').notNull(),
  signedAt: text('signed_at').notNull(),
  receivedAt: timestamp('received_at').defaultNow().notNull(),
})

/**
 * The tables the example writes, created at start (a real app runs its own migrations). The lock
 * lets instances that start together create them in turn. A notification answer is found by
 * `answer_key` (see `answerKey`), never by its event_id, which may be long or repeat across apps.
 */
export const APP_TABLES = `
SELECT pg_advisory_xact_lock(hashtext('ringhook example tables'));
CREATE TABLE IF NOT EXISTS example_gestures (
  id serial PRIMARY KEY,
  user_app_id text NOT NULL,
  gesture_type text NOT NULL,
  signed_at text NOT NULL,
  received_at timestamp NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS example_notification_answers (
  answer_key text PRIMARY KEY,
  app_id text NOT NULL,
  event_id text NOT NULL,
  user_app_id text NOT NULL,
  response text NOT NULL
);`
