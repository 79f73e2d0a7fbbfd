import { describe, expect, test } from "vitest";
import { hasVisibleCharacter } from "./visible-text.js";

describe("hasVisibleCharacter", () => {
  test("names in any script, with emoji, symbols or a single visible character among blanks, are visible", () => {
    for (const name of ["Review", "보고서", "naïve", "🧵", "·", "-", "\u200Ba\u200B", " x ", "\u0301", "\u3000ㄱ"]) {
      expect(hasVisibleCharacter(name), JSON.stringify(name)).toBe(true);
    }
  });

  test("white space, format and default-ignorable code points and the blank symbols alone are blank", () => {
    const blanks = [
      "",
      " \t\n",
      "\u00A0\u2003\u3000", // no-break, em and ideographic spaces
      "\u200B", // zero width space (Cf)
      "\u2800", // braille pattern blank (So, no property says blank)
      "\u3164", // hangul filler (Lo, default ignorable)
      "\u00AD", // soft hyphen (Cf)
      "\u115F\u1160\uFFA0", // hangul choseong and jungseong fillers, halfwidth hangul filler
      "\u200C\u200D\u2060\uFEFF", // joiners, word joiner, byte order mark
      "\u034F\uFE0F\u{E0100}", // combining grapheme joiner, variation selectors
      "\u180E\u{E0041}", // mongolian vowel separator, a tag character
      "\u{1D159}\u{1D173}", // musical null notehead and a musical format control
      "\u0007\u007F", // control characters
    ];
    for (const name of blanks) expect(hasVisibleCharacter(name), JSON.stringify(name)).toBe(false);
  });
});
