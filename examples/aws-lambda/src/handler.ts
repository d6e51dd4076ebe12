// The module Lambda loads: set the function's handler to `handler.handler` (after bundling, e.g.
// `esbuild src/handler.ts --bundle --platform=node --format=esm --outfile=dist/handler.mjs`).
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  throw new Error(
    "RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page into the function's environment",
  )
}

// Created once per execution environment: warm invocations share the receiver and its dedup memory.
export const { handler, receiver } = createApp(secret)
