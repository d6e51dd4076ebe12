// The module Lambda loads: set the function's handler to `handler.handler` (after bundling, e.g.
// `esbuild src/handler.ts --bundle --platform=node --format=esm --outfile=dist/handler.mjs`).
import pino from 'pino'
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  throw new Error(
    "RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page into the function's environment",
  )
}

// One JSON line per entry on stdout, which Lambda sends to CloudWatch Logs: ringhook's refused and
// failed deliveries included (never the secret), at LOG_LEVEL (default info).
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })

// Created once per execution environment: warm invocations share the receiver and its dedup memory.
export const { handler, receiver } = createApp(secret, { logger })
