import type { ServiceTriggerRequest } from '@ringhook/core/api'
import { TRIGGER_LIMITS } from '@ringhook/core/api'
import type { ResponseConfigKept } from '../model.js'

/**
 * Applies rule 6 of the trigger: the first 5 options are kept and labels are cut to 15
 * characters (code points). Each change becomes a warning; the trigger still succeeds.
 */
export function truncateResponseConfig(config: ServiceTriggerRequest['response_config']): {
  config: ResponseConfigKept | null
  warnings: string[]
} {
  if (!config || config.type === 'none') return { config: null, warnings: [] }
  if (config.type === 'yes_no_dismiss') return { config: { type: 'yes_no_dismiss' }, warnings: [] }
  const warnings: string[] = []
  const { maxOptions, maxLabelLength } = TRIGGER_LIMITS
  const given = config.options
  if (given.length > maxOptions) {
    const dropped = given.slice(maxOptions).map((option) => `${option.emoji} "${option.label}"`)
    warnings.push(
      `response_config.options: ${given.length} options given, the first ${maxOptions} were kept; dropped ${dropped.join(', ')}`,
    )
  }
  const options = given.slice(0, maxOptions).map((option, index) => {
    const characters = Array.from(option.label)
    if (characters.length <= maxLabelLength) return { emoji: option.emoji, label: option.label }
    const label = characters.slice(0, maxLabelLength).join('')
    warnings.push(
      `response_config.options[${index}].label: shortened to ${maxLabelLength} characters, "${option.label}" became "${label}"`,
    )
    return { emoji: option.emoji, label }
  })
  return { config: { type: 'emoji', options }, warnings }
}
