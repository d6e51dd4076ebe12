// The module Lambda loads: set the function's handler to `handler.handler` (after bundling, e.g.
// `esbuild src/handler.ts --bundle --platform=node --format=esm --outfile=dist/handler.mjs`).
import { fileSink } from '@ringhook/capture'
import { createCapture } from '@ringhook/core/capture'
import pino from 'pino'
import { createApp } from './app.js'
import { storeFromEnv } from './store.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  throw new Error(
    "RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page into the function's environment",
  )
}

// One JSON line per entry on stdout, which Lambda sends to CloudWatch Logs: ringhook's refused and
// failed deliveries included (never the secret), at LOG_LEVEL (default info).
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })
// RINGHOOK_CAPTURE_FILE=captures.jsonl records every delivery answered, for `ringhook replay`.
const captureFile = process.env.RINGHOOK_CAPTURE_FILE
const capture = captureFile ? createCapture({ sink: fileSink({ path: captureFile }), logger }) : undefined

// DYNAMODB_TABLE=ringhook: deliveries are remembered in that table, by every execution environment.
const store = storeFromEnv(process.env)

// Created once per execution environment: warm invocations share the receiver and its DynamoDB client.
export const { handler, receiver } = createApp(secret, { logger, capture, ...(store ? { store } : {}) })
