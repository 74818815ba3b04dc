/**
 * The console's error sentences (web/errors.ts), without a browser: the daemon's validation
 * failures (`path: zod message`) and provider failures become sentences naming the field or the
 * HTTP status, with the daemon's words kept as the technical detail; plain-worded details
 * (a key's name) stay after the words; a code the console does not know is shown as sent. The
 * daemon's values (named()) are said in the console's words. English: Bun has no zh-CN
 * navigator; the Chinese side is the browser tests'.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { detailOf, errorWords } from "../../web/errors.ts";
import { named } from "../../web/i18n.ts";

describe("errors in people's words", () => {
  test("an empty field from zod names the field, zod's words are the detail", () => {
    const message = "model: Too small: expected string to have >=1 characters";
    const words = errorWords("invalid_request", message);
    assert.equal(words, "“Model” is empty: fill it in and try again.");
    assert.equal(detailOf(words), message);
  });

  test("a field the console has no name for gets a general sentence, never zod's words", () => {
    const words = errorWords("invalid_request", "frobnicate: Invalid input: expected number, received string");
    assert.equal(words, "Something in the form is not right: check the fields and try again.");
    assert.match(detailOf(words)!, /^frobnicate: /);
  });

  test("an import in the wrong shape (a ChatGPT export where JSON Lines was expected) says the format is unreadable", () => {
    assert.equal(errorWords("invalid_history", "Invalid input: expected object, received array"), "This file is not in a format homed can read.");
  });

  test("a provider's HTTP failure names the status and what to do; its answer is the detail", () => {
    const message = 'Provider answered HTTP 500: {"error":{"message":"upstream exploded"}}';
    const words = errorWords("provider_server_error", message);
    assert.equal(words, "The model provider failed (HTTP 500). Try again in a moment, or check its settings on the Providers page.");
    assert.equal(detailOf(words), message);
    assert.equal(errorWords("provider_network", "fetch failed: ECONNREFUSED"), "The model provider cannot be reached. Try again in a moment, or check its settings on the Providers page.");
  });

  test("plain-worded details stay after the words; an unknown code is shown as sent", () => {
    assert.equal(errorWords("key_exists", "Cannot create the key 'dup'"), "A key with that name exists already: Cannot create the key 'dup'");
    assert.equal(errorWords("brand_new", "A newer daemon's reason"), "A newer daemon's reason");
  });

  test("the daemon's values in the console's words, unknown ones as sent", () => {
    assert.equal(named("state", "backoff"), "waiting to restart");
    assert.equal(named("check", "browser: chromium"), "browser: Chromium");
    assert.equal(named("role", "assistant"), "assistant");
    assert.equal(named("state", "brand-new-state"), "brand-new-state");
  });
});
