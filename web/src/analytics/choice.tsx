/**
 * A control of the analytics page: a labelled select whose value is a
 * parameter of the address. A value typed into the address that is not one
 * of the choices is still shown as chosen, and the service's refusal of it
 * appears beside the control.
 */
import { FieldError } from '../ui/notes.js';
import { replaceParam } from '../router.js';

export interface Choice {
  value: string;
  label: string;
}

export function ChoiceField(props: { name: string; label: string; value: string; fallback: string; choices: Choice[]; other: (value: string) => string; errors?: string[] }) {
  const id = `control-${props.name}`;
  const value = props.value || props.fallback;
  const choices = props.choices.some((c) => c.value === value) ? props.choices : [...props.choices, { value, label: props.other(value) }];
  const errors = props.errors ?? [];
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length ? `${id}-error` : undefined}
        onChange={(e) => {
          const chosen = (e.target as HTMLSelectElement).value;
          replaceParam(props.name, chosen === props.fallback ? '' : chosen);
        }}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}
