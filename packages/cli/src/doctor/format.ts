import type { DoctorReport, FindingLevel } from './run-doctor.js'

const MARK: Record<FindingLevel, string> = { ok: '✓', info: '·', warn: '!', fail: '✗' }

/** The report as the CLI prints it: one line a check (passed ✓ or failed ✗), its advice indented below. */
export function formatReport(report: DoctorReport): string {
  const lines = [`ringhook doctor → ${report.url}`, '']
  for (const finding of report.findings) {
    lines.push(`${MARK[finding.level]} ${finding.title}`)
    if (finding.detail) lines.push(`  ${finding.detail}`)
  }
  const failed = report.findings.filter((f) => f.level === 'fail').length
  lines.push('', failed === 0 ? 'No problem found.' : `${failed} problem${failed === 1 ? '' : 's'} found.`)
  lines.push(`Each probe is a gesture of type "ringhook_doctor" and appears in your app's log, the refused ones too.`)
  return lines.join('\n')
}
