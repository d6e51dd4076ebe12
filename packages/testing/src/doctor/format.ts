import type { DoctorReport, FindingLevel } from './run-doctor.js'

const MARK: Record<FindingLevel, string> = { ok: '✓', info: '·', warn: '!', fail: '✗' }

/** The report as the CLI prints it: one line a finding, its advice indented below. */
export function formatReport(report: DoctorReport): string {
  const lines = [`ringhook doctor → ${report.url}`, '']
  for (const finding of report.findings) {
    lines.push(`${MARK[finding.level]} ${finding.title}`)
    if (finding.detail) lines.push(`  ${finding.detail}`)
  }
  const failed = report.findings.filter((f) => f.level === 'fail').length
  lines.push('', failed === 0 ? 'No problem found.' : `${failed} problem${failed === 1 ? '' : 's'} found.`)
  return lines.join('\n')
}
