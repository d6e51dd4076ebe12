// POST /webhooks. The whole integration is the last line: the Request goes to the receiver untouched.
import { webhookReceiver } from '../../lib/receiver'

// node:crypto verifies faster than Web Crypto, and a webhook must never be answered from a cache.
export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'

// Do not read the body here first (request.json(), request.text()): the receiver needs the exact
// bytes the service signed, and a Request body can be read only once.
export const POST = (request: Request): Promise<Response> => webhookReceiver().fetch(request)
