import { randomUUID } from "node:crypto";
import { Mutex } from "async-mutex";
import ICAL from "ical.js";
import { defineTool, ToolFailure, z, type Lifecycle, type ToolDefinition } from "../sdk/index.ts";
import { CALENDAR_NAME, CalendarFiles } from "./files.ts";
import { occurrencesIn, seriesOf, type Occurrence } from "./occurrences.ts";
import { ReminderState } from "./reminders.ts";
import { instantFromInput, instantOf, TimeInputFailure, timeFromInput, timeForModel, zoneNamed } from "./times.ts";
import type { Config } from "./config.ts";

const When = z.string().min(10).max(40).describe("2026-10-26T09:00 (wall clock in `timezone`), 2026-10-26T08:00:00Z or …+01:00 (an instant), or 2026-10-26 (all day)");
const Zone = z.string().min(1).max(64).describe("IANA time zone, e.g. Europe/Berlin");
const Uid = z.string().min(1).max(300).describe("uid from calendar_list or calendar_create");

/** A reminder missed by up to this much (homed was down, the machine slept) is still sent; an older one is not. */
const LATE_MS = 60 * 60_000;

/** An occurrence as a reminder event tells it. */
const described = (o: Occurrence) => ({ uid: o.uid, calendar: o.calendar, summary: o.summary, start: o.start, end: o.end, ...(o.location ? { location: o.location } : {}) });

/** The calendar plugin's tools, loaded only in its own process (its libraries stay out of the others'). */
export function calendarTools(config: Config, lifecycle: Lifecycle): ToolDefinition[] {
  zoneNamed(config.timezone); // an unknown default zone is a settings problem, said at start
  const files = new CalendarFiles(config.dir);
  const lock = new Mutex();
  const reminders = new ReminderState(config.dir);
  /** Reminders of single events run to the second: a timer each for those due before the next check. */
  const armed = new Map<string, ReturnType<typeof setTimeout>>();
  const remind = () => {
    const state = reminders.read();
    if (!lifecycle.shared.attached) return;
    const now = Date.now();
    const calendars = () => files.loadAll().calendars;
    if (state.minutesBefore) {
      const soon = calendars().flatMap((c) => occurrencesIn(c.name, c.calendar, now, now + state.minutesBefore! * 60_000, config.timezone, config.maxOccurrences));
      // Only those starting from now on: an event already under way is not "upcoming".
      const upcoming = soon.filter((o) => Date.parse(o.start) >= now);
      const fresh = new Set(reminders.markSent(upcoming.map((o) => `${o.uid}|${o.start}`)));
      for (const o of upcoming) {
        if (!fresh.has(`${o.uid}|${o.start}`)) continue;
        lifecycle.shared.pushEvent({ type: "calendar_upcoming", ...(state.session ? { session: state.session } : {}), urgent: true, ...described(o), minutesBefore: state.minutesBefore });
      }
    }
    const alarms = Object.entries(state.alarms);
    if (alarms.length === 0) return;
    const horizon = now + config.checkSeconds * 1000;
    const longest = Math.max(...alarms.map(([, a]) => a.minutesBefore)) * 60_000;
    const occurrences = calendars().flatMap((c) => occurrencesIn(c.name, c.calendar, now - LATE_MS, horizon + longest, config.timezone, config.maxOccurrences));
    const due: Occurrence[] = [];
    for (const o of occurrences) {
      const alarm = state.alarms[o.uid];
      if (!alarm) continue;
      const at = Date.parse(o.start) - alarm.minutesBefore * 60_000;
      const key = `alarm|${o.uid}|${o.start}`;
      if (at < now - LATE_MS || at > horizon) continue;
      if (at <= now) due.push(o);
      else if (!armed.has(key))
        armed.set(
          key,
          setTimeout(() => {
            armed.delete(key);
            tick();
          }, at - now),
        );
    }
    const fresh = new Set(reminders.markSent(due.map((o) => `alarm|${o.uid}|${o.start}`)));
    for (const o of due) {
      if (!fresh.has(`alarm|${o.uid}|${o.start}`)) continue;
      const { minutesBefore, session } = state.alarms[o.uid]!;
      lifecycle.shared.pushEvent({ type: "calendar_reminder", ...(session ? { session } : {}), urgent: true, ...described(o), minutesBefore });
    }
  };
  const tick = () => {
    try {
      remind();
    } catch {
      // An unreadable file now is tried again at the next tick; calendar_list names it.
    }
  };
  const timer = setInterval(tick, config.checkSeconds * 1000);
  // Reminders that fell due while homed was down are sent soon after the start (once attached).
  const first = setTimeout(tick, 2000);
  lifecycle.onClose(() => {
    clearInterval(timer);
    clearTimeout(first);
    for (const t of armed.values()) clearTimeout(t);
  });
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof TimeInputFailure) throw new ToolFailure(error.code, error.message);
      throw error;
    }
  };
  /** The calendar holding a UID, with its master event. */
  const findSeries = (uid: string) => {
    for (const { name, calendar } of files.loadAll().calendars) {
      const event = seriesOf(calendar).find((e) => e.uid === uid);
      if (event) return { name, calendar, event };
    }
    throw new ToolFailure("event_not_found", `No event with uid ${uid}`, { uid, next_action: "call calendar_list to see the uids" });
  };
  const stamp = (event: ICAL.Event) => {
    event.component.updatePropertyWithValue("dtstamp", ICAL.Time.fromJSDate(new Date(), true));
    event.sequence = (event.sequence ?? 0) + 1;
  };
  const zoneOf = (time: ICAL.Time) => (time.zone && time.zone.tzid !== "floating" ? time.zone.tzid : config.timezone);

  return [
    defineTool({
      name: "calendar_list",
      description: "List event occurrences overlapping [from, to), recurring events expanded, sorted by start. Times come back as wall clock with offset in each event's zone.",
      input: z.object({ from: When, to: When, timezone: Zone.optional(), calendar: z.string().regex(CALENDAR_NAME).optional() }),
      run: ({ from, to, timezone, calendar: only }) =>
        guard(() => {
          const zone = timezone ?? config.timezone;
          const fromMs = instantFromInput(from, zone);
          const toMs = instantFromInput(to, zone);
          if (toMs <= fromMs) throw new ToolFailure("bad_range", `Cannot list: ${to} is not after ${from}`);
          if (toMs - fromMs > config.maxRangeDays * 86_400_000) throw new ToolFailure("range_too_long", `Cannot list more than ${config.maxRangeDays} days at once`);
          const { calendars, unreadable } = files.loadAll();
          const events: Occurrence[] = calendars
            .filter((c) => !only || c.name === only)
            .flatMap((c) => occurrencesIn(c.name, c.calendar, fromMs, toMs, zone, config.maxOccurrences))
            .sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.summary.localeCompare(b.summary));
          return { events: events.slice(0, config.maxOccurrences), truncated: events.length > config.maxOccurrences, calendars: calendars.map((c) => c.name), unreadable };
        }),
    }),
    defineTool({
      name: "calendar_create",
      description:
        'Create an event. Give start, or startInMinutes (from now: "in 5 minutes" needs no clock). Give end or durationMinutes (default 60 minutes; all-day events one day). rrule repeats it, e.g. FREQ=WEEKLY;BYDAY=MO;COUNT=10. remindMinutesBefore sets a reminder that wakes this conversation.',
      input: z.object({
        summary: z.string().min(1).max(500),
        start: When.optional(),
        startInMinutes: z
          .number()
          .int()
          .min(0)
          .max(366 * 24 * 60)
          .optional()
          .describe("instead of start: this many minutes from now"),
        end: When.optional(),
        durationMinutes: z
          .number()
          .int()
          .positive()
          .max(60 * 24 * 366)
          .optional(),
        timezone: Zone.optional(),
        rrule: z.string().min(6).max(500).optional(),
        location: z.string().max(500).optional(),
        description: z.string().max(10_000).optional(),
        calendar: z.string().regex(CALENDAR_NAME).default("personal"),
        remindMinutesBefore: z
          .number()
          .int()
          .min(0)
          .max(7 * 24 * 60)
          .optional()
          .describe("remind this conversation this many minutes before each occurrence (0: at its start); the reminder wakes you to tell the person"),
      }),
      run: (args, { session }) =>
        lock.runExclusive(() =>
          guard(() => {
            const zone = args.timezone ?? config.timezone;
            if ((args.start === undefined) === (args.startInMinutes === undefined)) throw new ToolFailure("bad_time", "Cannot create: give either start or startInMinutes");
            const startText = args.start ?? new Date(Date.now() + args.startInMinutes! * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
            const start = timeFromInput(startText, zone);
            const end = args.end ? timeFromInput(args.end, zone) : start.clone();
            if (!args.end)
              end.addDuration(
                start.isDate ? ICAL.Duration.fromData({ days: Math.max(1, Math.round((args.durationMinutes ?? 1440) / 1440)) }) : ICAL.Duration.fromSeconds((args.durationMinutes ?? 60) * 60),
              );
            if (end.isDate !== start.isDate) throw new ToolFailure("bad_range", "Cannot create: start and end must both be dates or both be times");
            if (instantOf(end, zone) < instantOf(start, zone)) throw new ToolFailure("bad_range", `Cannot create: the end ${args.end} is before the start ${startText}`);
            const vevent = new ICAL.Component("vevent");
            const event = new ICAL.Event(vevent);
            event.uid = `${randomUUID()}@homed`;
            event.summary = args.summary;
            event.startDate = start;
            event.endDate = end;
            if (args.location) event.location = args.location;
            if (args.description) event.description = args.description;
            if (args.rrule) vevent.addPropertyWithValue("rrule", parseRule(args.rrule));
            vevent.addPropertyWithValue("dtstamp", ICAL.Time.fromJSDate(new Date(), true));
            const calendar = files.load(args.calendar) ?? files.create();
            if (!start.isDate) files.includeZone(calendar, zoneOf(start));
            calendar.addSubcomponent(vevent);
            files.save(args.calendar, calendar);
            if (args.remindMinutesBefore !== undefined) {
              reminders.setAlarm(event.uid, { minutesBefore: args.remindMinutesBefore, ...(session ? { session } : {}) });
              tick();
            }
            return {
              uid: event.uid,
              calendar: args.calendar,
              start: timeForModel(start),
              end: timeForModel(end),
              ...(args.rrule ? { rule: args.rrule } : {}),
              ...(args.remindMinutesBefore !== undefined ? { remindMinutesBefore: args.remindMinutesBefore } : {}),
            };
          }),
        ),
    }),
    defineTool({
      name: "calendar_move",
      description: "Move an event (a recurring one as a whole series) to a new start; it keeps its length unless end is given.",
      input: z.object({ uid: Uid, start: When, end: When.optional(), timezone: Zone.optional() }),
      run: ({ uid, start, end, timezone }) =>
        lock.runExclusive(() =>
          guard(() => {
            const { name, calendar, event } = findSeries(uid);
            const zone = timezone ?? zoneOf(event.startDate);
            const length = event.endDate.subtractDateTz(event.startDate);
            const newStart = timeFromInput(start, zone);
            const newEnd = end ? timeFromInput(end, zone) : newStart.clone();
            if (!end) newEnd.addDuration(length);
            if (instantOf(newEnd, zone) < instantOf(newStart, zone)) throw new ToolFailure("bad_range", `Cannot move: the end ${end} is before the start ${start}`);
            event.startDate = newStart;
            if (event.component.hasProperty("duration") && !end) {
              // DURATION already says the length; DTEND must not be added beside it.
            } else {
              event.component.removeAllProperties("duration");
              event.endDate = newEnd;
            }
            stamp(event);
            if (!newStart.isDate) files.includeZone(calendar, zoneOf(newStart));
            files.save(name, calendar);
            return { uid, calendar: name, start: timeForModel(event.startDate), end: timeForModel(event.endDate) };
          }),
        ),
    }),
    defineTool({
      name: "calendar_remind",
      description: "Turn reminders on (minutesBefore: events starting within that many minutes are pushed once each as they come up) or off (0). Off by default.",
      input: z.object({
        minutesBefore: z
          .number()
          .int()
          .min(0)
          .max(7 * 24 * 60),
      }),
      run: ({ minutesBefore }, { session }) => {
        reminders.setMinutesBefore(minutesBefore || null, session);
        return { reminders: minutesBefore ? { minutesBefore } : "off" };
      },
    }),
    defineTool({
      name: "calendar_delete",
      description: "Delete an event (a recurring one: the whole series), or with occurrence (its start, as calendar_list gives it) only that one occurrence.",
      input: z.object({ uid: Uid, occurrence: When.optional() }),
      run: ({ uid, occurrence }) =>
        lock.runExclusive(() =>
          guard(() => {
            const { name, calendar, event } = findSeries(uid);
            if (!occurrence) {
              for (const vevent of calendar.getAllSubcomponents("vevent")) if (vevent.getFirstPropertyValue("uid") === uid) calendar.removeSubcomponent(vevent);
              files.save(name, calendar);
              reminders.setAlarm(uid, null);
              return { deleted: uid, calendar: name };
            }
            if (!event.isRecurring()) throw new ToolFailure("not_recurring", `Event ${uid} does not repeat: delete it without occurrence`);
            const zone = zoneOf(event.startDate);
            const target = instantFromInput(occurrence, zone);
            const iterator = event.iterator();
            let hit: ICAL.Time | undefined;
            for (let next = iterator.next(), steps = 0; next && steps < 200_000; next = iterator.next(), steps++) {
              const at = instantOf(next, zone);
              if (at === target || instantOf(event.getOccurrenceDetails(next).startDate, zone) === target) hit = next;
              if (hit || at > target + 366 * 86_400_000) break;
            }
            if (!hit) throw new ToolFailure("no_such_occurrence", `Event ${uid} has no occurrence starting at ${occurrence}`, { uid, next_action: "use a start exactly as calendar_list gives it" });
            const exdate = event.component.addPropertyWithValue("exdate", hit);
            if (!hit.isDate && hit.zone && hit.zone.tzid !== "UTC" && hit.zone.tzid !== "floating") exdate.setParameter("tzid", hit.zone.tzid);
            for (const vevent of calendar.getAllSubcomponents("vevent")) {
              const rid = vevent.getFirstPropertyValue("recurrence-id");
              if (vevent.getFirstPropertyValue("uid") === uid && rid instanceof ICAL.Time && rid.compare(hit) === 0) calendar.removeSubcomponent(vevent);
            }
            stamp(event);
            files.save(name, calendar);
            return { deleted: uid, occurrence: timeForModel(hit), calendar: name };
          }),
        ),
    }),
  ];
}

function parseRule(text: string): ICAL.Recur {
  const rule = text.replace(/^RRULE:/i, "");
  let recur: ICAL.Recur;
  try {
    recur = ICAL.Recur.fromString(rule);
  } catch (error) {
    throw new ToolFailure("bad_rrule", `Cannot read the rule "${text}": ${(error as Error).message}`);
  }
  if (!recur.freq) throw new ToolFailure("bad_rrule", `Cannot read the rule "${text}": FREQ is missing (e.g. FREQ=WEEKLY;COUNT=10)`);
  return recur;
}
