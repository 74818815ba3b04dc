/**
 * Private files: every file homed creates is 0600 and every folder 0700, whatever the user's
 * umask. A process umask is the one setting that also covers the files SQLite creates itself
 * (the WAL and shared-memory files appear whenever it needs them), so it is set once, first
 * thing in `main`, and inherited by the plugins the daemon starts. Measured before: with umask
 * 022, homed.db, its -wal and -shm were 0644 and the data folder 0755.
 */

/** Owner-only: what homed's files and folders get. */
export const PRIVATE_UMASK = 0o077;

let usersUmask: number | undefined;

/** Applies the private umask, remembering the one the process had (the user's). */
export function usePrivateFileModes(): void {
  const previous = process.umask(PRIVATE_UMASK);
  usersUmask ??= previous;
}

/** The umask the user started homed with (the current one when the private one was never applied). */
export function userUmask(): number {
  if (usersUmask !== undefined) return usersUmask;
  const current = process.umask(PRIVATE_UMASK);
  process.umask(current);
  return current;
}

/** Carries the user's umask (octal) to a built-in plugin that works in the user's own folder. */
export const USER_UMASK_ENV = "HOMED_USER_UMASK";

/** Gives the process the user's umask back, from USER_UMASK_ENV's value; ignores anything else. */
export function useUserUmaskFrom(octal: string | undefined): void {
  if (octal !== undefined && /^[0-7]{1,4}$/.test(octal)) process.umask(Number.parseInt(octal, 8));
}
