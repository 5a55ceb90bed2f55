// A gate for choreographed tests: a step waits at it (`pass`), the test learns that the
// step got there (`reached`) and lets it through when it chooses (`open`).
export interface Gate {
  /** Resolves once a step is waiting at the gate. */
  reached: Promise<void>;
  /** Waits until the gate is opened (at once when it is open already). */
  pass(): Promise<void>;
  open(): void;
}

/** A closed gate. */
export function gate(): Gate {
  let arrive!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    reached,
    pass: () => {
      arrive();
      return opened;
    },
    open,
  };
}
