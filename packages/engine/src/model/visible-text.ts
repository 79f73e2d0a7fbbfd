/**
 * A character that shows something: not white space (Unicode White_Space), not a format character
 * (general category Cf: U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN, U+2060, U+FEFF, …), not a
 * default-ignorable code point (U+3164 HANGUL FILLER, U+115F, U+FFA0, variation selectors, …), not a
 * control character, and not one of the blank symbols no property describes: U+2800 BRAILLE PATTERN
 * BLANK and U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, drawn as nothing.
 */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\u2800\u{1D159}]/u;

/** Whether a name (of a workflow, an API key, a document, a cache namespace) would show at all: a name made only of blank code points is refused as blank. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text);
}

/** What a name made only of blank code points is told (the document parser, the API, the CLI). */
export const VISIBLE_NAME = "must contain a visible character (blank, format and invisible code points alone are blank)";
