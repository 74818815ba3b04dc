/**
 * Calendars as iCalendar files, one per calendar: `<dir>/<name>.ics`, each a VCALENDAR that any
 * calendar program can open. Read fresh on every call (another program may have changed them);
 * written atomically (a temporary file, then rename). A file that does not parse is reported
 * by name and left untouched, never overwritten.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ICAL from "ical.js";
import { registerZonesOf, zoneNamed } from "./times.ts";

export const CALENDAR_NAME = /^[A-Za-z0-9_-]{1,40}$/;

export type LoadedCalendar = { name: string; calendar: ICAL.Component };
export type Unreadable = { name: string; message: string };

export class CalendarFiles {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  names(): string[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".ics") && CALENDAR_NAME.test(f.slice(0, -4)))
      .map((f) => f.slice(0, -4))
      .sort();
  }

  /** Every calendar that parses, and the names of those that do not. */
  loadAll(): { calendars: LoadedCalendar[]; unreadable: Unreadable[] } {
    const calendars: LoadedCalendar[] = [];
    const unreadable: Unreadable[] = [];
    for (const name of this.names()) {
      try {
        calendars.push({ name, calendar: this.load(name)! });
      } catch (error) {
        unreadable.push({ name, message: (error as Error).message });
      }
    }
    return { calendars, unreadable };
  }

  /** The calendar's contents; undefined when it has no file yet; throws when the file does not parse. */
  load(name: string): ICAL.Component | undefined {
    let text: string;
    try {
      text = readFileSync(this.file(name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    let calendar: ICAL.Component;
    try {
      calendar = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    } catch (error) {
      throw new Error(`Cannot read calendar ${name}.ics: ${(error as Error).message}`);
    }
    if (calendar.name !== "vcalendar") throw new Error(`Cannot read calendar ${name}.ics: it holds a ${calendar.name}, not a VCALENDAR`);
    registerZonesOf(calendar);
    return calendar;
  }

  /** A new, empty calendar (not yet written). */
  create(): ICAL.Component {
    const calendar = new ICAL.Component("vcalendar");
    calendar.addPropertyWithValue("prodid", "-//homed//calendar plugin//EN");
    calendar.addPropertyWithValue("version", "2.0");
    return calendar;
  }

  /** Adds the zone's VTIMEZONE to the file if it lacks it, so other programs read the times right. */
  includeZone(calendar: ICAL.Component, tzid: string): void {
    if (tzid === "UTC" || calendar.getAllSubcomponents("vtimezone").some((z) => z.getFirstPropertyValue("tzid") === tzid)) return;
    const zone = zoneNamed(tzid);
    if (zone.component) calendar.addSubcomponent(new ICAL.Component(zone.component.toJSON() as unknown as unknown[]));
  }

  save(name: string, calendar: ICAL.Component): void {
    const temporary = `${this.file(name)}.${process.pid}.tmp`;
    writeFileSync(temporary, calendar.toString());
    renameSync(temporary, this.file(name));
  }

  private file(name: string): string {
    return join(this.dir, `${name}.ics`);
  }
}
