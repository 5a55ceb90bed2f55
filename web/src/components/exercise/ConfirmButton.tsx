// A button whose action waits for a second, explicit yes: the question and the two answers
// appear in its place, the focus on the safe one; either answer puts the focus back.
import { useEffect, useRef, useState } from 'react';

export interface ConfirmButtonProps {
  label: string;
  question: string;
  confirm: string;
  onConfirm(): void;
  disabled?: boolean;
  className?: string;
}

export function ConfirmButton({ label, question, confirm, onConfirm, disabled = false, className }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) safe.current?.focus();
    else if (wasAsking.current) opener.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking)
    return (
      <button type="button" ref={opener} className={className} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="confirm-yes"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" ref={safe} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
