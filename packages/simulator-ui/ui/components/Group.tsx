import type { ComponentChildren } from 'preact'

interface GroupProps {
  legend: string
  /** Keeps the legend for screen readers only, where the context already shows it. */
  hideLegend?: boolean
  class?: string
  children: ComponentChildren
}

/** A labelled group of controls: a fieldset, so the legend names the group for assistive technology. */
export function Group({ legend, hideLegend = false, class: className = 'buttons', children }: GroupProps) {
  return (
    <fieldset class={`group ${className}`}>
      <legend class={hideLegend ? 'visually-hidden' : 'group__legend'}>{legend}</legend>
      {children}
    </fieldset>
  )
}
