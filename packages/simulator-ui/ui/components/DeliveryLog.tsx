import { useControls } from '../controls.js'
import { clock } from '../format.js'
import { logRows } from '../log-rows.js'
import type { Model } from '../model.js'

/** Every webhook attempt as it happens, with its reply; gestures that sent nothing and refused API calls too. */
export function DeliveryLog({ model }: { model: Model }) {
  const rows = logRows(model)
  const { api, act } = useControls()
  return (
    <section class="log" aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log</h2>
      {rows.some((row) => row.failed) && (
        <button type="button" onClick={() => act(() => api.resendFailed(new Date(0).toISOString()))}>
          Resend every failed delivery
        </button>
      )}
      {rows.length === 0 ? (
        <p class="empty">No webhooks yet: install an app or perform a gesture.</p>
      ) : (
        <div class="log__scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">App · user</th>
                <th scope="col">Attempt</th>
                <th scope="col">HTTP</th>
                <th scope="col">Latency</th>
                <th scope="col">Outcome</th>
                <th scope="col">Next retry</th>
                <th scope="col">Reply</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} class={`row row--${row.tone}`}>
                  <td>
                    <time dateTime={row.at}>{clock(row.at)}</time>
                  </td>
                  <td>
                    <code>{row.event}</code>
                  </td>
                  <td>{row.target}</td>
                  <td>{row.attempt}</td>
                  <td>{row.status}</td>
                  <td>{row.latency}</td>
                  <td>
                    <span class={`tag tag--${row.tone}`}>{row.outcome}</span>
                    {row.fault && <span class="tag tag--fault">fault: {row.fault}</span>}
                    {row.captured && (
                      <span class="tag tag--captured" title="Loaded from a capture file: the captured record's id">
                        captured {row.captured}
                      </span>
                    )}
                    {row.resend && (
                      <button type="button" onClick={() => act(() => api.resend(row.resend as string))}>
                        Resend
                      </button>
                    )}
                  </td>
                  <td>{row.next}</td>
                  <td class="log__reply">
                    {row.reply && <code>{row.reply}</code>}
                    {row.note && <p class="log__note">{row.note}</p>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
