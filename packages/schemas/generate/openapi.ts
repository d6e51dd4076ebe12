import * as api from '@ringhook/core/api'
import { EVENT_NOTES } from '@ringhook/core/internal'
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_PREFIX } from '@ringhook/core/signature'
import { EVENT_SCHEMAS, embeddedSchemaOf, type JsonObject } from './json-schema.js'
import { signingRules } from './webhooks.js'

// The service as an OpenAPI 3.1 document: the /v1 API of spec sections 4, 5 and 7, and a webhook for
// every event. Every body's schema comes from core's zod definitions; what is written here is what
// they cannot say (paths, statuses, headers, the words around them).

/** Component names of the schemas, PascalCase as OpenAPI tools name types. */
const eventComponent = (name: api.EventName): string =>
  `${name
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`

const ref = (component: string): JsonObject => ({ $ref: `#/components/schemas/${component}` })
const json = (component: string): JsonObject => ({ 'application/json': { schema: ref(component) } })

/** An error answer: the status's meaning for this endpoint, with the error body. */
const error = (description: string): JsonObject => ({ description, content: json('ApiError') })

const pathParameter = (name: string, description: string): JsonObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1 },
})

const APP_ID = pathParameter('app_id', 'The app’s identifier (`app_<id>`); only apps owned by the caller.')
const USER_APP_ID = pathParameter(
  'user_app_id',
  'A user-app identifier as delivered in webhooks, or `@me`: the user account linked to the API key.',
)
const EVENT_ID = pathParameter('event_id', 'The `event_id` a trigger returned.')

const RATE_LIMITED = error(
  `Rate limit exceeded: ${api.RATE_LIMITS.requestsPerKey.limit} requests per API key per ${api.RATE_LIMITS.requestsPerKey.windowMs / 1000} s, ${api.RATE_LIMITS.vibesPerUser.limit} vibes per user per ${api.RATE_LIMITS.vibesPerUser.windowMs / 1000} s.`,
)

/** One GET endpoint: its summary, parameters, answer and errors. */
function get(
  operationId: string,
  summary: string,
  parameters: JsonObject[],
  answer: string,
  errors: JsonObject,
): JsonObject {
  return {
    get: {
      operationId,
      summary,
      parameters,
      responses: { '200': { description: 'OK', content: json(answer) }, ...errors },
    },
  }
}

function paths(): JsonObject {
  const notFound = error('The app was not found or is not owned by the caller.')
  return {
    '/v1/apps/{app_id}/installs': get('listInstalls', 'List the installations of an app.', [APP_ID], 'InstallList', {
      '404': notFound,
    }),
    '/v1/apps/{app_id}/installs/@me': get(
      'getOwnInstall',
      'The caller’s own installation: check that `@me` will work as a trigger target.',
      [APP_ID],
      'OwnInstall',
      {
        '400': error('The API key is not linked to a user account.'),
        '404': error('The app was not found, not owned by the caller, or not installed on the caller’s ring.'),
      },
    ),
    '/v1/apps/{app_id}/users': get(
      'listUsers',
      'List the users of an app, with their state.',
      [
        APP_ID,
        {
          name: 'state',
          in: 'query',
          required: false,
          description: 'Only users in this state; `all` (the default) lists every user.',
          schema: embeddedSchemaOf(api.userStateFilterSchema),
        },
      ],
      'UserList',
      { '404': notFound },
    ),
    '/v1/apps/{app_id}/users/{user_app_id}': get(
      'getUser',
      'One user’s state and permissions.',
      [APP_ID, USER_APP_ID],
      'UserDetail',
      {
        '400': error('An invalid user_app_id, or `@me` while the API key is linked to no user account.'),
        '404': error('The app was not found or not owned by the caller, or the user was not found.'),
      },
    ),
    '/v1/vibes/patterns': get(
      'getVibePatterns',
      'The patterns a vibe may use and its timing limits.',
      [],
      'VibePatterns',
      {},
    ),
    '/v1/vibes/trigger': {
      post: {
        operationId: 'triggerVibe',
        summary: 'Send a vibe to a user’s ring, optionally with a notification that asks for an answer.',
        description: [
          'Webhook and poll modes answer at once; await mode holds the connection until the user answers or',
          '`timeout_ms` passes. When the user has not enabled notifications for the app, every mode answers at',
          'once with `success: false` and `event_id: null` (not an error). A `response_config` with more than 5',
          'options, or labels longer than 15 characters, is truncated, and `warnings` says what was cut.',
        ].join(' '),
        requestBody: { required: true, content: json('TriggerRequest') },
        responses: {
          '200': {
            description: 'The vibe was sent, or the user has not enabled it (`success: false`).',
            content: json('TriggerResult'),
          },
          '400': error(
            'Missing fields, invalid types, a delay out of range, or `@me` while the API key is linked to no user account.',
          ),
          '403': error(
            'The user has not installed the app, or disabled vibes (`permission_disabled`); with `@me`, the app must be installed on the caller’s ring.',
          ),
          '404': notFound,
          '429': RATE_LIMITED,
        },
      },
    },
    '/v1/events/{event_id}/response': get(
      'getEventResponse',
      'Poll for the answer to a trigger sent with a response_config.',
      [EVENT_ID],
      'EventResponseRecord',
      {},
    ),
  }
}

/** The header parameters every webhook carries. */
function webhookHeaders(): JsonObject[] {
  return [
    {
      name: 'X-SERVICE-Signature',
      in: 'header',
      required: true,
      description: `\`${SIGNATURE_PREFIX}\` and the lowercase hex HMAC-SHA256 of \`{timestamp}.{body}\`, keyed with the webhook secret.`,
      schema: { type: 'string', pattern: `^${SIGNATURE_PREFIX}[0-9a-f]{64}$` },
    },
    {
      name: 'X-SERVICE-Timestamp',
      in: 'header',
      required: true,
      description: `When the delivery was signed, in Unix seconds; refused when more than ${DEFAULT_TOLERANCE_SECONDS} s from the receiver’s clock.`,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
  ]
}

function webhook(name: api.EventName): JsonObject {
  const acknowledged = { description: 'Acknowledged: the service does not retry.' }
  const ok =
    name === 'gesture'
      ? {
          description:
            'Acknowledged; the body may be a gesture reply, whose vibe the service plays at once (it follows the trigger rules).',
          content: json('GestureReply'),
        }
      : acknowledged
  return {
    post: {
      operationId: `${name.replace(/[._](.)/g, (_, letter: string) => letter.toUpperCase())}Webhook`,
      summary: EVENT_NOTES[name].about,
      description: signingRules(DEFAULT_TOLERANCE_SECONDS),
      // Authenticated by its signature headers, not by the API key.
      security: [],
      parameters: webhookHeaders(),
      requestBody: { required: true, content: json(eventComponent(name)) },
      responses: {
        '200': ok,
        '2XX': acknowledged,
        default: { description: 'Not acknowledged: the service retries the delivery (see the description).' },
      },
    },
  }
}

function schemas(): JsonObject {
  const events = Object.fromEntries(
    Object.entries(EVENT_SCHEMAS).map(([name, schema]) => [
      eventComponent(name as api.EventName),
      embeddedSchemaOf(schema),
    ]),
  )
  return {
    ...events,
    WebhookEvent: embeddedSchemaOf(api.webhookEventSchema),
    GestureReply: embeddedSchemaOf(api.gestureReplySchema),
    Install: embeddedSchemaOf(api.installSchema, 'output'),
    InstallList: embeddedSchemaOf(api.installListSchema, 'output'),
    OwnInstall: embeddedSchemaOf(api.ownInstallSchema, 'output'),
    User: embeddedSchemaOf(api.userSchema, 'output'),
    UserList: embeddedSchemaOf(api.userListSchema, 'output'),
    UserDetail: embeddedSchemaOf(api.userDetailSchema, 'output'),
    VibePatterns: embeddedSchemaOf(api.vibePatternsSchema, 'output'),
    TriggerRequest: embeddedSchemaOf(api.serviceTriggerRequestSchema),
    TriggerResult: embeddedSchemaOf(api.triggerResultSchema, 'output'),
    EventResponseRecord: embeddedSchemaOf(api.eventResponseRecordSchema, 'output'),
    ApiError: {
      ...embeddedSchemaOf(api.apiErrorBodySchema, 'output'),
      description:
        'The error body of ringhook’s simulator. The service does not document its own, so read it leniently.',
    },
  }
}

/** The OpenAPI 3.1 document of the service. */
export function openApiDocument(): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ring haptics service',
      version: 'v1',
      summary: 'The ring-haptics service’s /v1 API and the webhooks it sends to an app, as ringhook implements them.',
      description:
        'Generated by `@ringhook/schemas` from the zod schemas of `@ringhook/core`. Paths carry the `/v1` prefix; the service’s address is the server’s `base_url`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: '{base_url}',
        description: 'The service’s address, without `/v1`; `ringhook simulate` serves one on localhost.',
        variables: { base_url: { default: 'http://127.0.0.1:4010' } },
      },
    ],
    security: [{ bearer: [] }],
    paths: paths(),
    webhooks: Object.fromEntries(Object.keys(EVENT_SCHEMAS).map((name) => [name, webhook(name as api.EventName)])),
    components: {
      schemas: schemas(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The app developer’s API key: `Authorization: Bearer <API_KEY>`.',
        },
      },
    },
  }
}
