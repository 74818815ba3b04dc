/**
 * Times between the model and ical.js. The model writes ISO 8601: an instant (`…Z`, `…+02:00`),
 * a wall-clock time (`2026-10-26T09:00`, read in a named IANA zone), or a date (all day). The
 * zone rules come from the files' own VTIMEZONE blocks, else from timezones-ical-library's
 * current tz database, registered with ical.js so its recurrence expansion keeps 09:00 at 09:00
 * across a daylight-saving change.
 */
import ICAL from "ical.js";
import { tzlib_get_ical_block, tzlib_get_timezones } from "timezones-ical-library";

export class TimeInputFailure extends Error {
  constructor(
    readonly code: "bad_time" | "unknown_timezone",
    message: string,
  ) {
    super(message);
    this.name = "TimeInputFailure";
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The VTIMEZONE for an IANA name, registered once; unknown names are refused. */
export function zoneNamed(tzid: string): ICAL.Timezone {
  if (tzid === "UTC" || tzid === "Etc/UTC") return ICAL.Timezone.utcTimezone;
  if (!ICAL.TimezoneService.has(tzid)) {
    // Asked first: the library writes "Given time zone not valid." to stderr for unknown names.
    const known = (tzlib_get_timezones() as string[]).includes(tzid);
    const block = known ? tzlib_get_ical_block(tzid) : undefined;
    const text = Array.isArray(block) ? block[0] : undefined;
    if (!text?.startsWith("BEGIN:VTIMEZONE")) throw new TimeInputFailure("unknown_timezone", `Unknown time zone "${tzid}" (use an IANA name such as Europe/Berlin)`);
    ICAL.TimezoneService.register(new ICAL.Component(ICAL.parse(text) as unknown as unknown[]));
  }
  return ICAL.TimezoneService.get(tzid)!;
}

/** Registers a file's own VTIMEZONE blocks (they win over the library's for their events). */
export function registerZonesOf(calendar: ICAL.Component): void {
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = String(vtimezone.getFirstPropertyValue("tzid") ?? "");
    if (tzid && !ICAL.TimezoneService.has(tzid)) ICAL.TimezoneService.register(vtimezone);
  }
}

/** A model's time as an ical.js time: instants land in `tzid`'s wall clock, dates stay dates. */
export function timeFromInput(text: string, tzid: string): ICAL.Time {
  const zone = zoneNamed(tzid);
  if (DATE.test(text)) return ICAL.Time.fromDateString(text);
  if (LOCAL.test(text)) {
    const time = ICAL.Time.fromDateTimeString(text.length === 16 ? `${text}:00` : text);
    time.zone = zone;
    return time;
  }
  if (INSTANT.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ICAL.Time.fromJSDate(new Date(ms), true).convertToZone(zone);
  }
  throw new TimeInputFailure("bad_time", `Cannot read the time "${text}": use 2026-10-26T09:00 (with a timezone), 2026-10-26T09:00:00+01:00, or 2026-10-26 for all day`);
}

/** The instant a model's time names (a date or wall-clock time is read in `tzid`). */
export function instantFromInput(text: string, tzid: string): number {
  const time = timeFromInput(text, tzid);
  if (time.isDate) {
    const start = time.clone();
    start.isDate = false;
    start.zone = zoneNamed(tzid);
    return start.toJSDate().getTime();
  }
  return time.toJSDate().getTime();
}

/** The instant of an ical.js time; a date or floating time is read in `tzid`. */
export function instantOf(time: ICAL.Time, tzid: string): number {
  if (time.isDate || !time.zone || time.zone.tzid === "floating") {
    const wall = time.clone();
    wall.isDate = false;
    wall.zone = zoneNamed(tzid);
    return wall.toJSDate().getTime();
  }
  return time.toJSDate().getTime();
}

/** How a time goes back to the model: a date, or wall-clock time with its offset (`2026-10-26T09:00:00+01:00`). */
export function timeForModel(time: ICAL.Time): string {
  if (time.isDate) return time.toString();
  if (!time.zone || time.zone.tzid === "floating") return time.toString();
  const offset = time.utcOffset();
  if (time.zone === ICAL.Timezone.utcTimezone || time.zone.tzid === "UTC") return `${time.toString().replace(/Z$/, "")}Z`;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${time.toString()}${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
