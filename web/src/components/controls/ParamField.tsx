// One parameter: the input its kind calls for, named by its label, with help and the
// validation error in the server's words.
import { describeBounds, type ParamSpec } from '@racelab/shared';

interface Props {
  spec: ParamSpec;
  text: string;
  error: string | undefined;
  onChange(text: string): void;
}

export function ParamField({ spec, text, error, onChange }: Props) {
  const id = `param-${spec.name}`;
  const describedBy = [`${id}-help`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  } as const;
  let input;
  switch (spec.kind) {
    case 'int':
      input = (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          min={spec.min}
          max={spec.max}
          step={1}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'choice':
      input = (
        <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          {spec.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'int-list':
      input = (
        <input {...common} type="text" spellCheck={false} autoComplete="off" value={text} onChange={(e) => onChange(e.target.value)} />
      );
      break;
  }
  const unit = spec.kind === 'choice' ? undefined : spec.unit;
  return (
    <div className={`param${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{spec.label}</label>
      <div className="param-input">
        {input}
        {unit && <span className="unit">{unit}</span>}
      </div>
      <p className="help" id={`${id}-help`}>
        {spec.help} <span className="bounds">({describeBounds(spec)})</span>
      </p>
      {error && (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
