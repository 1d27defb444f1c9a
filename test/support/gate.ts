/**
 * A gate a tool waits at until the test opens it: `reached` resolves when the tool is waiting, so a
 * test can act while a turn is held in the middle (a tool call), then let it finish.
 */
export interface Gate {
  /** Resolves once a caller waits at the gate. */
  readonly reached: Promise<void>;
  /** Called by the tool: marks the gate reached and resolves when it is opened. */
  readonly wait: () => Promise<void>;
  readonly open: () => void;
}

export function gate(): Gate {
  let reach: () => void = () => {};
  let release: () => void = () => {};
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    wait: () => {
      reach();
      return opened;
    },
    open: () => release(),
  };
}
