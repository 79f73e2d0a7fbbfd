import { CombinedError } from "urql";
import { describe, expect, it } from "vitest";
import { translate } from "@/i18n/translate";
import { en } from "@/i18n/en/index";
import { ko } from "@/i18n/ko/index";
import type { MessageKey } from "@/i18n/dictionary.type";
import { refusalsOf, secretErrorText } from "./secret-errors";

const english = (key: MessageKey) => translate(en, key);
const korean = (key: MessageKey) => translate(ko, key);

describe("secret refusals", () => {
  it("words the codes it knows in the page's language and keeps the code", () => {
    expect(secretErrorText(english, { code: "SECRET_KEY_REQUIRED", message: "set WEFT_SECRET_KEY" })).toBe(
      "The server has no secret key, so it cannot store secrets: set WEFT_SECRET_KEY and restart it. [SECRET_KEY_REQUIRED]",
    );
    expect(secretErrorText(korean, { code: "SECRET_VALUE_INVALID", message: "a secret's value is 1 to 16384 bytes" })).toBe("값은 1~16,384바이트입니다. [SECRET_VALUE_INVALID]");
  });

  it("shows the server's message for a code it does not know", () => {
    expect(secretErrorText(english, { code: "RATE_LIMITED", message: "slow down" })).toBe("slow down [RATE_LIMITED]");
  });

  it("reads user errors with their field, and a refused request by its GraphQL code", () => {
    expect(refusalsOf(undefined, [{ code: "SECRET_NAME_INVALID", message: "bad", path: ["name"] }])).toEqual([{ code: "SECRET_NAME_INVALID", message: "bad", field: "name" }]);
    expect(refusalsOf(undefined, [])).toEqual([]);
    const forbidden = new CombinedError({ graphQLErrors: [{ message: "needs admin", extensions: { code: "FORBIDDEN" } }] });
    expect(refusalsOf(forbidden, undefined)).toEqual([{ code: "FORBIDDEN", message: "needs admin", field: null }]);
  });
});
