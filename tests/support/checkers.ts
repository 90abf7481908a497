// The independent checkers some tests hand their output to (a strict vCard
// parser, a QR scanner, Python). Outside CI a missing one skips its tests with
// a loud message; under CI=true it fails the run, so CI never passes while
// skipping its strongest checks.
import { spawnSync } from "node:child_process";

export const IN_CI = ["1", "true"].includes((process.env.CI ?? "").toLowerCase());

/** Whether `command args…` runs here; under CI a missing checker is an error. */
function hasChecker(what: string, command: string, args: string[], install: string): boolean {
  const result = spawnSync(command, args, { stdio: "ignore" });
  if (result.status === 0) return true;
  const message = `${what} is not available (${command} ${args.join(" ")} failed). Install it: ${install}`;
  if (IN_CI) throw new Error(`${message}. Under CI every check must run.`);
  console.warn(`\n[tests] SKIPPED: ${message}\n`);
  return false;
}

export const PYTHON = "/usr/bin/python3";

export const hasVobject = () =>
  hasChecker("The strict vCard parser", PYTHON, ["-c", "import vobject"], "apt-get install python3-vobject");
export const hasZbar = () => hasChecker("The QR scanner", "zbarimg", ["--version"], "apt-get install zbar-tools");
export const hasPython = () => hasChecker("Python", PYTHON, ["--version"], "apt-get install python3");
export const hasStrace = () =>
  hasChecker("The system-call tracer", "strace", ["-e", "trace=none", "true"], "apt-get install strace");
export const hasPodman = () =>
  hasChecker(
    "Podman, which builds and runs the container image,",
    "podman",
    ["--version"],
    "apt-get install podman runc mmdebstrap uidmap fuse-overlayfs slirp4netns",
  );
export const hasSystemdAnalyze = () =>
  hasChecker("systemd's unit checker", "systemd-analyze", ["--version"], "apt-get install systemd");
