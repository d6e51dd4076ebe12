import type { Delivery, LogEntry } from '@ringhook/simulator/control-api'
import { useEffect, useReducer, useState } from 'preact/hooks'
import type { Api } from './api.js'
import { emptyModel, type Model, reduce } from './model.js'

export type Connection = 'connecting' | 'live' | 'offline'

/**
 * Follows the simulator: subscribes to `/_sim/events` first, then loads state and log, then applies
 * the entries that arrived meanwhile (the model drops those the log already held, by `seq`).
 * Every (re)connection reloads, so a restarted simulator is picked up too.
 */
export function useSimulator(api: Api): { model: Model; connection: Connection } {
  const [model, dispatch] = useReducer(reduce, emptyModel)
  const [connection, setConnection] = useState<Connection>('connecting')

  useEffect(() => {
    const source = new EventSource(api.eventsUrl)
    let buffer: LogEntry[] | undefined = []
    const refreshDelivery = deliveryRefresher(api, (delivery) => dispatch({ type: 'delivery', delivery }))
    const handle = (entry: LogEntry) => {
      dispatch({ type: 'entry', entry })
      if (entry.type === 'delivery.queued' || entry.type === 'delivery.attempt' || entry.type === 'delivery.settled') {
        refreshDelivery(entry.delivery_id)
      }
    }
    source.onopen = async () => {
      buffer = []
      try {
        const log = await api.log()
        const snapshot = await api.state()
        dispatch({ type: 'loaded', snapshot, log })
        const waiting = buffer
        buffer = undefined
        for (const entry of waiting) handle(entry)
        setConnection('live')
      } catch {
        setConnection('offline')
      }
    }
    source.onmessage = (message: MessageEvent<string>) => {
      const entry = JSON.parse(message.data) as LogEntry
      if (buffer) buffer.push(entry)
      else handle(entry)
    }
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting')
    return () => source.close()
  }, [api])

  return { model, connection }
}

/** Fetches whole deliveries, one request per delivery at a time, once more if it changed meanwhile. */
function deliveryRefresher(api: Api, done: (delivery: Delivery) => void) {
  const changed = new Map<string, boolean>()
  const refresh = (id: string): void => {
    if (changed.has(id)) return void changed.set(id, true)
    changed.set(id, false)
    api
      .delivery(id)
      .then(done, () => undefined)
      .finally(() => {
        const again = changed.get(id)
        changed.delete(id)
        if (again) refresh(id)
      })
  }
  return refresh
}
