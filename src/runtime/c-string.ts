/** A NUL-terminated UTF-8 copy of `text`, for a C `char *` argument. */
export const cString = (text: string): Uint8Array => new TextEncoder().encode(`${text}\0`);
