/**
 * Secrets are never stored as memory (issue 15): every shape in the secret corpus is masked with
 * its kind, and every look-alike in the second corpus stays exactly as written.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { describeMasked, maskSecrets, passesLuhn } from "../../src/text/index.ts";

// Built from parts so that no whole secret-shaped string sits in the repository.
const b62 = (n: number) => "aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY".repeat(4).slice(0, n);
const pem = (label: string) => `-----BEGIN ${label}-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n${b62(40)}\n-----END ${label}-----`;

const SECRETS: [string, string, string][] = [
  ["openai key", `my key is sk-${b62(48)} ok`, "openai-key"],
  ["openai project key", `OPENAI=sk-proj-${b62(40)}`, "openai-key"],
  ["anthropic key", `use sk-ant-api03-${b62(60)}`, "anthropic-key"],
  ["github classic token", `ghp_${b62(36)}`, "github-token"],
  ["github oauth token", `token gho_${b62(36)} here`, "github-token"],
  ["github fine-grained token", `github_pat_11ABCDEFG0${b62(50)}`, "github-token"],
  ["slack bot token", `xoxb-1234567890-${b62(24)}`, "slack-token"],
  ["slack user token", `xoxp-1234567890-0987654321-${b62(20)}`, "slack-token"],
  ["aws access key id", `aws id AKIA${"IOSFODNN7EXAMPLE"}`, "aws-access-key"],
  ["google api key", `key=AIza${b62(35)}`, "google-api-key"],
  ["stripe secret key", `sk_live_${b62(24)}`, "stripe-key"],
  ["homed app key", `hk-${b62(43)}`, "homed-app-key"],
  ["jwt", `Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${b62(43)}`, "jwt"],
  ["rsa private key", `here:\n${pem("RSA PRIVATE KEY")}\nthanks`, "private-key"],
  ["pkcs8 private key", pem("PRIVATE KEY"), "private-key"],
  ["openssh private key", pem("OPENSSH PRIVATE KEY"), "private-key"],
  ["password = value", "db password = hunter22!", "password-value"],
  ["passwd: value", "passwd: c0rrect-h0rse", "password-value"],
  ["quoted api_key", `api_key: "9f8e7d6c5b4a"`, "password-value"],
  ["env-style secret", "DB_PASSWORD=Tr0ub4dor&3", "password-value"],
  ["client_secret in json", `{"client_secret": "abcdef123456"}`, "password-value"],
  ["visa card", "card 4111111111111111 exp 12/29", "card-number"],
  ["visa card with spaces", "4111 1111 1111 1111", "card-number"],
  ["mastercard with dashes", "5555-5555-5555-4444", "card-number"],
  ["amex 4-6-5", "amex 3782 822463 10005", "card-number"],
];

const LOOK_ALIKES: [string, string][] = [
  ["uuid", "request 550e8400-e29b-41d4-a716-446655440000 failed"],
  ["git sha", "fixed in commit 29ab39f3c2d1e4b5a6978877665544332211aabb"],
  ["isbn with dashes", "ISBN 978-0-306-40615-7"],
  ["isbn contiguous", "isbn 9780306406157"],
  ["order number failing luhn", "order 4111111111111112 shipped"],
  ["password reset link", "Click the password reset link in your email"],
  ["token economy", "the token economy is booming"],
  ["secret with a short value", "The secret: keep it simple"],
  ["token count", "max tokens: 4096"],
  ["png base64 header", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="],
  ["phone number", "call me at +1 (415) 555-0132 or 020 7946 0958"],
  ["date and time", "on 2024-01-15T10:30:00Z, i.e. 15/01/2024"],
  ["millisecond timestamp", "at 1700000000000 ms"],
  ["sk- inside words", "the task-force was risk-averse and desk-bound"],
  ["short sk- name", "sk-learn is a python library"],
  ["AKIA alone", "AKIA is not a key by itself"],
  ["hk- road name", "take the hk-2 exit"],
  ["eyJ alone", "the string eyJ starts JSON in base64"],
  ["public key block", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----"],
  ["card last four", "the card ending in 4242 was declined"],
  ["ip address and version", "server 192.168.1.10 runs v1.2.3"],
  ["prose about secrets", "My secret is that I love pineapple; my password is on a note"],
  ["sixteen digits not a card prefix", "account 9876543210123456"],
  ["tracking number", "parcel 1Z999AA10123456784"],
];

describe("secret masking", () => {
  for (const [name, text, kind] of SECRETS) {
    test(`masks: ${name}`, () => {
      const { text: out, masked } = maskSecrets(text);
      assert.ok(out.includes(`[secret masked: ${kind}]`), out);
      assert.deepEqual(
        masked.map((m) => m.kind),
        [kind],
      );
      // Nothing long of the original secret survives (the key name of a pair may).
      const secretPart = text.replace(/^.*?(sk-|gh|github_pat_|xox|AKIA|AIza|hk-|eyJ|-----BEGIN|= |: |=|\d)/s, "$1");
      assert.ok(!out.includes(secretPart.slice(0, 16)) || secretPart.length < 6, out);
    });
  }

  test("the corpora are big enough to mean something", () => {
    assert.ok(SECRETS.length >= 20 && LOOK_ALIKES.length >= 20);
  });

  for (const [name, text] of LOOK_ALIKES) {
    test(`keeps: ${name}`, () => {
      assert.deepEqual(maskSecrets(text), { text, masked: [] });
    });
  }

  test("counts per kind, for a log line with no secret in it", () => {
    const text = `a sk-${b62(40)} b sk-${b62(30)} c 4111111111111111`;
    const { masked } = maskSecrets(text);
    assert.equal(describeMasked(masked), "2 openai-key, 1 card-number");
    assert.equal(maskSecrets(maskSecrets(text).text).masked.length, 0, "masking twice finds nothing new");
  });

  test("a key in a key = value pair is reported once, as its provider kind", () => {
    const { text, masked } = maskSecrets(`OPENAI_API_KEY=sk-${b62(40)}`);
    assert.equal(text, "OPENAI_API_KEY=[secret masked: openai-key]");
    assert.deepEqual(masked, [{ kind: "openai-key", count: 1 }]);
  });

  test("a quoted value keeps its quotes: JSON stays JSON", () => {
    const { text } = maskSecrets(`{"client_secret": "abcdef123456", "note": "ok"}`);
    assert.deepEqual(JSON.parse(text), { client_secret: "[secret masked: password-value]", note: "ok" });
  });

  test("the Luhn check", () => {
    assert.equal(passesLuhn("4111111111111111"), true);
    assert.equal(passesLuhn("4111111111111112"), false);
    assert.equal(passesLuhn("79927398713"), true);
  });
});
