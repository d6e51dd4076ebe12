export { type ClientTelemetry, otelClientInstrumentation } from './client.js'
export type { OtelOptions } from './options.js'
export { otelQueueInstrumentation, type QueueTelemetry } from './queue.js'
export { type OtelInstrumentationOptions, otelInstrumentation } from './receiver.js'
