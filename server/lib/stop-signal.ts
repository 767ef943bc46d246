// The signal that stops a server process, told once however many times it arrives.
//
// One stop is often signalled twice: a terminal's Ctrl-C goes to its whole foreground process group
// and `npm start` forwards the SIGINT it got to its script as well (npm's run-script signal
// manager), and a cluster worker hears its primary besides. A listener that removed itself after
// the first would leave the second to the default action, an exit mid-drain by the signal that
// leaves the SQLite WAL behind and makes npm exit by it too. So the listeners stay for the
// process's life: every later SIGTERM or SIGINT finds the drain already under way.

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Resolves with the first SIGTERM or SIGINT this process receives; later ones are ignored. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) process.on(signal, () => resolve(signal));
  });
}
