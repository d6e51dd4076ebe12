/**
 * The wire formats as zod schemas, with the types inferred from them and the service's limits:
 * webhook payloads (every event's own type), gesture replies and the vibe builder's types, and the /v1
 * API. For the API client, the simulator and anything else that speaks to (or as) the service.
 *
 * @packageDocumentation
 */
export { ACK_BODY } from './ack.js'
export { describeIssues } from './issues.js'
export * from './schemas/index.js'
export type { StepInput, StepInputs } from './vibe.js'
export type { VibeIssue, VibeRule } from './vibe-rules.js'
