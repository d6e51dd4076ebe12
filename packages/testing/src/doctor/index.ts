export { formatReport } from './format.js'
export {
  type DoctorOptions,
  type DoctorReport,
  type Finding,
  type FindingId,
  type FindingLevel,
  runDoctor,
} from './run-doctor.js'
