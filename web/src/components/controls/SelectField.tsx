// A labelled drop-down of the controls column: its label, its options and, when given, a line of help.
import type { ReactNode } from 'react';

export interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  options: { value: string; text: ReactNode }[];
  onChange: (value: string) => void;
  help?: string;
}

export function SelectField({ id, label, value, options, onChange, help }: SelectFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} value={value} aria-describedby={helpId} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
      {help && (
        <p className="help" id={helpId}>
          {help}
        </p>
      )}
    </div>
  );
}
