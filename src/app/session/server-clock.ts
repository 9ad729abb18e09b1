// The server's time as this device can tell it: the offset between the server's clock (the `Date`
// header of its answers) and the device's. Token expiries are server times, so refreshes are planned
// by this clock, never by the device's alone (a tablet's clock is often minutes or days off).

let offsetMs = 0;

/**
 * Notes the server's `Date` header of an answer just received. The header has one-second
 * resolution and is written when the answer starts, so half a second is added to centre the error.
 */
export function noteServerDate(header: string | null, receivedAt = Date.now()): void {
  if (!header) return;
  const server = Date.parse(header);
  if (Number.isNaN(server)) return;
  offsetMs = server + 500 - receivedAt;
}

/** How far the server's clock is ahead of the device's (negative: behind), in ms. */
export function clockOffsetMs(): number {
  return offsetMs;
}

/** Takes a remembered offset (the stored session's), until an answer of the server says otherwise. */
export function setClockOffsetMs(value: number | undefined): void {
  if (value !== undefined && Number.isFinite(value)) offsetMs = value;
}

/** The server's time now, as far as this device knows. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}
