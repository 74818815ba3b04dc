/**
 * calendar as a real plugin process over iCalendar files: an exported calendar (with its own
 * VTIMEZONE, a weekly rule, a moved occurrence and an all-day event) listed across the end of
 * daylight saving time; events created, moved and deleted, written as files other programs read.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import ICAL from "ical.js";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, type CallToolResult, type PluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../support/process.ts";
import { FIXTURES } from "./support.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("calendar plugin", () => {
  const dir = tempDir("homed-calendar-").path;
  let host: PluginHost;
  const events: { type: string; uid: string; summary: string; start: string; minutesBefore: number }[] = [];
  before(async () => {
    for (const name of ["work.ics", "broken.ics"]) copyFileSync(join(FIXTURES, "calendar", name), join(dir, name));
    host = createPluginHost([builtinSpec("calendar", SOURCE_HOMED, { dir, timezone: "Europe/Berlin", checkSeconds: 0.1 })], { graceMs: 1000 });
    host.onEvent((_plugin, event) => events.push(event as (typeof events)[number]));
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result: CallToolResult = await host.callTool("calendar", tool, args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, any>) } as Record<string, any>;
  };
  const list = async (from: string, to: string, extra: Record<string, unknown> = {}) => {
    const listed = await call("calendar_list", { from, to, ...extra });
    assert.equal(listed.isError, false, JSON.stringify(listed));
    return listed;
  };

  test("a weekly event across the end of summer time stays at 09:00 local; the moved occurrence and the all-day event are in place", async () => {
    const listed = await list("2026-10-01", "2026-11-30");
    assert.deepEqual(
      listed.events.map((e: { summary: string; start: string; end: string }) => [e.summary, e.start, e.end]),
      [
        ["Stand-up", "2026-10-12T09:00:00+02:00", "2026-10-12T09:15:00+02:00"],
        ["Stand-up (moved)", "2026-10-19T11:00:00+02:00", "2026-10-19T11:15:00+02:00"],
        ["Book fair", "2026-10-24", "2026-10-25"],
        ["Stand-up", "2026-10-26T09:00:00+01:00", "2026-10-26T09:15:00+01:00"],
        ["Stand-up", "2026-11-02T09:00:00+01:00", "2026-11-02T09:15:00+01:00"],
      ],
    );
    const after = listed.events[3];
    assert.equal(new Date(after.start).toISOString(), "2026-10-26T08:00:00.000Z", "after the change 09:00 Berlin is 08:00 UTC");
    assert.deepEqual([after.uid, after.timezone, after.location, after.recurring, after.rule], ["standup-1@example.com", "Europe/Berlin", "Room 4", true, "FREQ=WEEKLY;COUNT=4;BYDAY=MO"]);
    assert.deepEqual(
      listed.unreadable.map((u: { name: string }) => u.name),
      ["broken"],
      "the broken file is named, not fatal",
    );
    const narrow = await list("2026-10-26T08:10:00Z", "2026-11-01T00:00:00Z");
    assert.deepEqual(
      narrow.events.map((e: { start: string }) => e.start),
      ["2026-10-26T09:00:00+01:00"],
      "an occurrence still under way overlaps the range",
    );
  });

  test("create in another zone with a rule: New York's 08:30 stays 08:30 when the US clocks change; the file carries its VTIMEZONE", async () => {
    const created = await call("calendar_create", { summary: "Run", start: "2026-10-31T08:30", durationMinutes: 45, timezone: "America/New_York", rrule: "FREQ=DAILY;COUNT=3", location: "Park" });
    assert.equal(created.isError, false, JSON.stringify(created));
    assert.equal(created.calendar, "personal");
    const runs = (await list("2026-10-30", "2026-11-05", { calendar: "personal" })).events;
    assert.deepEqual(
      runs.map((e: { start: string }) => e.start),
      ["2026-10-31T08:30:00-04:00", "2026-11-01T08:30:00-05:00", "2026-11-02T08:30:00-05:00"],
    );
    assert.equal(runs[1].end, "2026-11-01T09:15:00-05:00");
    // Another reader (ical.js straight from the file) sees the same event and zone.
    const file = new ICAL.Component(ICAL.parse(readFileSync(join(dir, "personal.ics"), "utf8")) as unknown as unknown[]);
    assert.deepEqual(
      file.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")),
      ["America/New_York"],
    );
    const vevent = file.getFirstSubcomponent("vevent")!;
    assert.equal(vevent.getFirstProperty("dtstart")!.getParameter("tzid"), "America/New_York");
    assert.equal(vevent.getFirstPropertyValue("uid"), created.uid);
  });

  test("move keeps the length; deleting one occurrence leaves the others; deleting the series removes it", async () => {
    const created = await call("calendar_create", { summary: "Dentist", start: "2026-12-03T14:00", end: "2026-12-03T14:30" });
    const moved = await call("calendar_move", { uid: created.uid, start: "2026-12-04T16:00" });
    assert.deepEqual([moved.start, moved.end], ["2026-12-04T16:00:00+01:00", "2026-12-04T16:30:00+01:00"]);
    assert.deepEqual(
      (await list("2026-12-01", "2026-12-08")).events.map((e: { summary: string; start: string }) => [e.summary, e.start]),
      [["Dentist", "2026-12-04T16:00:00+01:00"]],
    );

    const dropped = await call("calendar_delete", { uid: "standup-1@example.com", occurrence: "2026-10-26T09:00:00+01:00" });
    assert.equal(dropped.isError, false, JSON.stringify(dropped));
    const left = (await list("2026-10-01", "2026-11-30", { calendar: "work" })).events.filter((e: { uid: string }) => e.uid === "standup-1@example.com");
    assert.deepEqual(
      left.map((e: { start: string }) => e.start),
      ["2026-10-12T09:00:00+02:00", "2026-10-19T11:00:00+02:00", "2026-11-02T09:00:00+01:00"],
    );
    assert.match(readFileSync(join(dir, "work.ics"), "utf8"), /EXDATE;TZID=Europe\/Berlin:20261026T090000/);

    assert.deepEqual(await call("calendar_delete", { uid: created.uid }), { isError: false, deleted: created.uid, calendar: "personal" });
    assert.deepEqual((await list("2026-12-01", "2026-12-08")).events, []);
  });

  test("bad input is refused as data and changes nothing", async () => {
    const before = readFileSync(join(dir, "work.ics"), "utf8");
    const refused = async (tool: string, args: Record<string, unknown>) => (await call(tool, args)).error;
    assert.equal(await refused("calendar_create", { summary: "x", start: "next tuesday" }), "bad_time");
    assert.equal(await refused("calendar_create", { summary: "x", start: "2026-12-03T14:00", timezone: "Mars/Olympus" }), "unknown_timezone");
    assert.equal(await refused("calendar_create", { summary: "x", start: "2026-12-03T14:00", end: "2026-12-03T13:00" }), "bad_range");
    assert.equal(await refused("calendar_create", { summary: "x", start: "2026-12-03T14:00", rrule: "COUNT=3;BYDAY=MO" }), "bad_rrule");
    assert.equal(await refused("calendar_create", { summary: "x", start: "2026-12-03T14:00", calendar: "../escape" }), "invalid_arguments");
    assert.equal(await refused("calendar_list", { from: "2026-01-01", to: "2028-01-01" }), "range_too_long");
    assert.equal(await refused("calendar_move", { uid: "nope", start: "2026-12-03T14:00" }), "event_not_found");
    assert.equal(await refused("calendar_delete", { uid: "standup-1@example.com", occurrence: "2026-10-27T09:00:00+01:00" }), "no_such_occurrence");
    assert.equal(await refused("calendar_delete", { uid: "fair-1@example.com", occurrence: "2026-10-24" }), "not_recurring");
    assert.equal(readFileSync(join(dir, "work.ics"), "utf8"), before);
    assert.match(readFileSync(join(dir, "broken.ics"), "utf8"), /^BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:2026\r\n$/, "an unreadable file is never rewritten");
  });

  test("reminders are off until asked; then an event starting soon is pushed once, one outside the window not at all", async () => {
    const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const soon = await call("calendar_create", { summary: "Call the plumber", start: inMinutes(3), calendar: "soon" });
    await call("calendar_create", { summary: "Much later", start: inMinutes(90), calendar: "soon" });
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(events.length, 0, "nothing is pushed while reminders are off");
    assert.deepEqual(await call("calendar_remind", { minutesBefore: 10 }), { isError: false, reminders: { minutesBefore: 10 } });
    const until = Date.now() + 5000;
    while (events.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 400)); // a few more checks: none may repeat it
    assert.deepEqual(
      events.map((e) => [e.type, e.uid, e.summary, e.minutesBefore]),
      [["calendar_upcoming", soon.uid, "Call the plumber", 10]],
    );
    assert.equal(new Date(events[0]!.start).getTime(), new Date(soon.start).getTime());
    assert.deepEqual(await call("calendar_remind", { minutesBefore: 0 }), { isError: false, reminders: "off" });
  });

  test("an event's own reminder is pushed once at its time, urgent; startInMinutes needs no clock; the reminder is kept in reminders.json", async () => {
    const inOneMinute = await call("calendar_create", { summary: "Stretch", startInMinutes: 1, calendar: "soon" });
    assert.ok(Math.abs(new Date(inOneMinute.start).getTime() - (Date.now() + 60_000)) < 5000, JSON.stringify(inOneMinute));
    assert.equal((await call("calendar_create", { summary: "x", calendar: "soon" })).error, "bad_time", "neither start nor startInMinutes");
    const at = Date.now() + 1500;
    const due = await call("calendar_create", { summary: "Drink water", start: new Date(at).toISOString().replace(/\.\d+Z$/, "Z"), remindMinutesBefore: 0, calendar: "soon" });
    assert.equal(due.remindMinutesBefore, 0);
    const stored = JSON.parse(readFileSync(join(dir, "reminders.json"), "utf8"));
    assert.deepEqual(stored.alarms[due.uid], { minutesBefore: 0 }, "kept (no session: this call came from no turn)");
    const until = Date.now() + 8000;
    const reminders = () => events.filter((e) => e.type === "calendar_reminder");
    while (reminders().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const pushedAt = Date.now();
    await new Promise((r) => setTimeout(r, 600)); // more checks: none may repeat it
    assert.deepEqual(
      reminders().map((e) => [e.uid, e.summary, (e as any).urgent]),
      [[due.uid, "Drink water", true]],
    );
    assert.ok(pushedAt >= Math.floor(at / 1000) * 1000, "not before its time");
  });
});
