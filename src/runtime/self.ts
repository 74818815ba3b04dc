/**
 * The command that runs this homed again — how the kernel launches built-in plugins
 * (`<self> plugin run <name>`). Compiled, that is the binary alone; from source, Bun plus the
 * entry script.
 */
export function selfCommand(): string[] {
  // Inside a compiled binary the entry script lives in Bun's embedded file system.
  const compiled = Bun.main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(Bun.main);
  return compiled ? [process.execPath] : [process.execPath, Bun.main];
}
