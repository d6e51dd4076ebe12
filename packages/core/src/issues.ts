/**
 * A zod error in one line, `path: message; path: message`, for error messages and logs.
 * `root` names the value itself when an issue has no path.
 */
export function describeIssues(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  root = '(body)',
): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || root}: ${issue.message}`).join('; ')
}
