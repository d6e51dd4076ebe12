import type { z } from 'zod'

/**
 * A zod error in one line, `path: message; path: message`, for error messages and logs.
 * `root` names the value itself when an issue has no path.
 */
export function describeIssues(error: Pick<z.ZodError, 'issues'>, root = '(body)'): string {
  return error.issues.map((issue) => `${issue.path.join('.') || root}: ${issue.message}`).join('; ')
}
