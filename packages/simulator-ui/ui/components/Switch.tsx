interface SwitchProps {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
  /** Says what "on" means when the label alone does not. */
  hint?: string
  disabled?: boolean
}

/** An on/off control: a real button with `role="switch"`, so Space and Enter flip it and readers announce it. */
export function Switch({ label, checked, onChange, hint, disabled = false }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      class="switch"
      aria-checked={checked}
      disabled={disabled}
      title={hint}
      onClick={() => onChange(!checked)}
    >
      <span class="switch__track" aria-hidden="true">
        <span class="switch__thumb" />
      </span>
      <span class="switch__label">{label}</span>
      <span class="switch__state" aria-hidden="true">
        {checked ? 'on' : 'off'}
      </span>
    </button>
  )
}
