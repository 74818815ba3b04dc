/** What one release build is about: version, CPU and where things are. */
export type Arch = {
  /** Node's and Bun's name, used in the tarball's name: x64, arm64. */
  node: "x64" | "arm64";
  /** Debian's: amd64, arm64. */
  deb: string;
  /** rpm's: x86_64, aarch64. */
  rpm: string;
};

export const ARCHES: readonly Arch[] = [
  { node: "x64", deb: "amd64", rpm: "x86_64" },
  { node: "arm64", deb: "arm64", rpm: "aarch64" },
];

export type Release = { root: string; dist: string; version: string; arch: Arch; licenses: string };
