/**
 * The attribute keys ringhook sets on spans and metric points. OpenTelemetry's own (`http.*`,
 * `messaging.*`, `error.type`) where its semantic conventions name the thing; `ringhook.*` for the rest.
 * None of them ever carries a secret, a signature, a body, an app id or a user id.
 */
export const ATTR = {
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  httpRoute: 'http.route',
  errorType: 'error.type',
  messagingSystem: 'messaging.system',
  messagingOperationName: 'messaging.operation.name',
  messagingOperationType: 'messaging.operation.type',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
  event: 'ringhook.event',
  outcome: 'ringhook.outcome',
  duplicate: 'ringhook.duplicate',
  secretIndex: 'ringhook.secret_index',
  dedupKeyHash: 'ringhook.dedup_key.hash',
  verificationReason: 'ringhook.verification.reason',
  handlerDuration: 'ringhook.handler.duration',
  handlerOutcome: 'ringhook.handler.outcome',
  deadlineReached: 'ringhook.deadline_reached',
  deadlineAction: 'ringhook.deadline.action',
  duplicateState: 'ringhook.duplicate.state',
  storeOperation: 'ringhook.store.operation',
  jobAttempt: 'ringhook.job.attempt',
  jobOutcome: 'ringhook.job.outcome',
  clientEndpoint: 'ringhook.client.endpoint',
  limiterRefused: 'ringhook.client.limiter.refused',
} as const
