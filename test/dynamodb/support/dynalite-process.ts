// dynalite in a process of its own, for runs where several receiver processes and a simulator
// already load the test's process: forked by startDynaliteProcess, it says its port over IPC.
import type { AddressInfo } from 'node:net'
import dynalite from 'dynalite'

const server = dynalite({ createTableMs: 0 })
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port })
})
