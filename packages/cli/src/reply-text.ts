import { cutNote } from './answer.js'

/** How many lines of a reply that is not JSON are worth showing: enough to recognise it, not a page. */
const MAX_LINES = 4
const MAX_LINE_CHARS = 160

/**
 * A reply body as a person should see it: JSON whole, anything else cut to its first few lines with
 * the length of the rest, and an HTML page reduced to its title and first words of text. A body
 * `cut` at the cap says so instead of its length.
 */
export function replyExcerpt(body: string, cut = false): string {
  if (body === '' || (!cut && isJson(body))) return body
  const text = isHtml(body) ? htmlText(body) : body
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const shown = lines
    .slice(0, MAX_LINES)
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line))
  const excerpt = shown.join('\n')
  if (cut) return `${excerpt}\n… ${cutNote()}`
  return excerpt.length < text.trim().length ? `${excerpt}\n… (${body.length} bytes in all)` : excerpt
}

/**
 * Who wrote an error answer: an HTML 5xx comes from the web framework or a proxy (ringhook answers
 * JSON), so the receiver's handlers may never have run. Undefined when nothing more can be said.
 */
export function frameworkError(status: number, body: string): string | undefined {
  if (status < 500 || !isHtml(body)) return undefined
  return `The ${status} is an HTML page from the web framework or a proxy, not from the ringhook receiver (it answers JSON): an error outside the receiver, such as middleware before it or a crash; the app's own log has the stack trace`
}

function isJson(body: string): boolean {
  try {
    JSON.parse(body)
    return true
  } catch {
    return false
  }
}

function isHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body|<pre|<h1)/i.test(body)
}

/** The title and visible text of an HTML page, without tags, scripts or styles. */
function htmlText(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim()
  const text = html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|h\d|li|pre|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
  return title ? `${title}\n${text}` : text
}
