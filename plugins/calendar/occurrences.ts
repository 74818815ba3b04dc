/**
 * The events of a calendar in a range, recurring ones expanded by ical.js (RRULE, RDATE,
 * EXDATE and moved occurrences — RECURRENCE-ID — all honoured), in their own time zones.
 */
import ICAL from "ical.js";
import { instantOf, timeForModel } from "./times.ts";

export type Occurrence = {
  uid: string;
  calendar: string;
  summary: string;
  start: string;
  end: string;
  allDay: boolean;
  timezone: string | null;
  location?: string;
  description?: string;
  recurring: boolean;
  rule?: string;
};

/** Steps of one rule walked at most: a daily rule from 1970 is ~20,000; this bounds a pathological one. */
const MAX_STEPS = 200_000;

/** The series (masters with their moved occurrences) in a calendar, by UID. */
export function seriesOf(calendar: ICAL.Component): ICAL.Event[] {
  const vevents = calendar.getAllSubcomponents("vevent");
  const exceptions = new Map<string, ICAL.Component[]>();
  for (const vevent of vevents) {
    if (!vevent.hasProperty("recurrence-id")) continue;
    const uid = String(vevent.getFirstPropertyValue("uid"));
    exceptions.set(uid, [...(exceptions.get(uid) ?? []), vevent]);
  }
  return vevents.filter((v) => !v.hasProperty("recurrence-id")).map((v) => new ICAL.Event(v, { exceptions: exceptions.get(String(v.getFirstPropertyValue("uid"))) ?? [], strictExceptions: false }));
}

/** Occurrences overlapping [fromMs, toMs), at most `limit` per series. */
export function occurrencesIn(name: string, calendar: ICAL.Component, fromMs: number, toMs: number, defaultZone: string, limit: number): Occurrence[] {
  const found: Occurrence[] = [];
  for (const event of seriesOf(calendar)) {
    const rule = event.component.getFirstPropertyValue("rrule");
    const describe = (item: ICAL.Event, start: ICAL.Time, end: ICAL.Time): Occurrence => ({
      uid: event.uid,
      calendar: name,
      summary: item.summary ?? "",
      start: timeForModel(start),
      end: timeForModel(end),
      allDay: start.isDate,
      timezone: start.isDate || !start.zone || start.zone.tzid === "floating" ? null : start.zone.tzid,
      ...(item.location ? { location: item.location } : {}),
      ...(item.description ? { description: item.description } : {}),
      recurring: event.isRecurring(),
      ...(rule ? { rule: String(rule) } : {}),
    });
    const overlaps = (start: ICAL.Time, end: ICAL.Time) => {
      const s = instantOf(start, defaultZone);
      const e = Math.max(instantOf(end, defaultZone), s);
      return s < toMs && (e > fromMs || (e === s && s >= fromMs));
    };
    if (!event.isRecurring()) {
      if (overlaps(event.startDate, event.endDate)) found.push(describe(event, event.startDate, event.endDate));
      continue;
    }
    const iterator = event.iterator();
    let count = 0;
    for (let steps = 0, next = iterator.next(); next && steps < MAX_STEPS && count < limit; steps++, next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      if (instantOf(details.startDate, defaultZone) >= toMs && instantOf(next, defaultZone) >= toMs) break;
      if (!overlaps(details.startDate, details.endDate)) continue;
      found.push(describe(details.item, details.startDate, details.endDate));
      count++;
    }
  }
  return found;
}
