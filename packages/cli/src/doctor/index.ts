/**
 * Checks a running receiver from outside with signed probes, as the service would reach it, and
 * explains what would make deliveries fail. `ringhook doctor` prints the same report.
 *
 * @packageDocumentation
 */
export { formatReport } from './format.js'
export {
  type DoctorOptions,
  type DoctorReport,
  type Finding,
  type FindingId,
  type FindingLevel,
  runDoctor,
} from './run-doctor.js'
