/** The body of a 200 to a delivery that needs no reply, written once for the receiver and the client. */
export const ACK_BODY = '{"ok":true}'
