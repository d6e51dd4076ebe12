// The h3 1.x recipe of packages/h3/README.md (Nuxt 4 and Nitro 2 run on h3 1): the Node request and
// response under the event, through the same translation as @ringhook/node. Not
// `receiver.fetch(toWebRequest(event))`: h3 1's request stream throws an uncaught exception when a
// reader stops early, as the receiver does at its size limit, which would take the process down.
import type { Receiver } from '@ringhook/core'
import { toWebhookRequest, writeResponse } from '@ringhook/node'
import { defineEventHandler } from 'h3v1'

/** What a Nuxt 4 route file (`server/routes/webhooks.ts`) exports. */
export const h3v1Recipe = (receiver: Receiver) =>
  defineEventHandler(async (event) => {
    writeResponse(event.node.res, await receiver.handle(toWebhookRequest(event.node.req)))
  })
