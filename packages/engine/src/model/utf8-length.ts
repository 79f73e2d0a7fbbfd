/**
 * Whether the UTF-8 encoding of `text` is longer than `max` bytes, counted without encoding it (no
 * TextEncoder: the engine runs in browsers and Node alike with no platform library) and stopping as
 * soon as the answer is known.
 */
export function utf8LengthExceeds(text: string, max: number): boolean {
  if (text.length > max) return true; // every UTF-16 unit is at least one UTF-8 byte
  if (text.length * 3 <= max) return false; // and at most three
  return utf8Length(text, max) > max;
}

/** The length of `text`'s UTF-8 encoding, counted without encoding it; stops counting once past `stopAbove`. */
export function utf8Length(text: string, stopAbove = Infinity): number {
  let bytes = 0;
  for (let k = 0; k < text.length; k += 1) {
    const unit = text.charCodeAt(k);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && k + 1 < text.length) {
      bytes += 4; // a surrogate pair is one 4-byte character
      k += 1;
    } else bytes += 3;
    if (bytes > stopAbove) return bytes;
  }
  return bytes;
}
