/**
 * A fault an operator fixes in the configuration or on the machine (a port in
 * use, a wrong database address, a folder that cannot be written). Its message
 * is one line that names the setting and what to do; it is printed as it is,
 * without a stack trace, and the process exits with status 1.
 */
export class StartupError extends Error {
  override name = "StartupError";
  /** Read by `server.js` and the scripts, which see the built module's class only by shape. */
  readonly startupFault = true;
}

/** Whether an error is a configuration fault to print as its message alone (an `EnvError` is one too). */
export function isStartupFault(error: unknown): error is Error {
  return (
    error instanceof Error && ((error as { startupFault?: boolean }).startupFault === true || error.name === "EnvError")
  );
}
