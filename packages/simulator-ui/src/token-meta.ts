/**
 * The `<meta name>` under which the served page carries the simulator's per-run token, for its
 * state-changing control calls. Shared by the handler that writes it and the page that reads it.
 */
export const TOKEN_META = 'ringhook-sim-token'
