/**
 * The base of homed's own failures: a string code that names the failure (one row of ERRORS in
 * table.ts, which says what HTTP status and exit code it gets) and, always when there is one, the
 * `cause`. Messages say what failed and why ("Cannot X: reason").
 */
export class HomedError extends Error {
  /** The request field at fault, when one is (an OpenAI client reads it as `error.param`). */
  readonly param?: string;

  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions & { param?: string },
  ) {
    super(message, options);
    this.name = new.target.name;
    if (options?.param !== undefined) this.param = options.param;
  }

  /**
   * The code a caller outside sees (the API's `error`, the table's row). The same as `code`
   * unless a family of errors shares its codes with others and prefixes them (ProviderError:
   * `timeout` is `provider_timeout` to the API).
   */
  get publicCode(): string {
    return this.code;
  }
}
