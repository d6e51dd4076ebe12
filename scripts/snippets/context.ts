// Names the JSDoc `@example`s take as given, so each example can stay one or two lines.
// scripts/check-snippets.mjs imports the ones an example uses and does not declare itself.
// Keep this short: a name belongs here only when its meaning is obvious from its name.
import type { Server } from 'node:http'
import type { EvalClient, EventQueue, RinghookWorker } from '@ringhook/bullmq'
import type { RinghookClient } from '@ringhook/client'
import type { HandlerContext, Receiver, WebhookEvent } from '@ringhook/core'
import type { PoolLike } from '@ringhook/postgres'
import type { expect as vitestExpect } from 'vitest'

/** A receiver from `createReceiver()`. */
export declare const receiver: Receiver
/** A client from `createClient()`. */
export declare const client: RinghookClient
/** The webhook secret from the apps page. */
export declare const secret: string
/** A running HTTP server. */
export declare const server: Server
/** An app id and a user-app id, as the API and the webhooks spell them. */
export declare const app_id: string
export declare const user_app_id: string
/** An event id returned by a trigger. */
export declare const eventId: string
/** A webhook as received: its raw body and the two signed headers' values. */
export declare const rawBody: string
export declare const signature: string
export declare const timestamp: string
/** A webhook payload, and where it is sent. */
export declare const payload: Record<string, unknown>
export declare const url: string
/** vitest's `expect`, in examples written as tests. */
export declare const expect: typeof vitestExpect
/** Bun's server, for the Fetch-style examples. */
export declare const Bun: { serve(options: { fetch(request: Request): Promise<Response> | Response }): unknown }
/** A request's method and headers, as a server hands them over. */
export declare const method: string
export declare const headers: Record<string, string>
/** A handler's context (second argument). */
export declare const context: HandlerContext
/** The queue of `createEventQueue()` and a worker of `createWorker()` (@ringhook/bullmq), and an ioredis client. */
export declare const events: EventQueue
export declare const worker: RinghookWorker
export declare const redis: EvalClient
/** A node-postgres `Pool` (@ringhook/postgres takes anything with its `query` and `connect`). */
export declare const pool: PoolLike
/** The app's own code that stores a notification's answer. */
export declare function saveAnswer(eventId: string, response: string, idempotencyKey?: string): Promise<void>
/** A verified webhook event, as a handler gets it. */
export declare const event: WebhookEvent
