package hiddentext

import "unicode"

// Hidden reports whether r is a character a terminal does not show as
// itself, so that text holding it could say more to a program than to the
// person reading it (PROTOCOL#hidden-text): the control characters (C0, DEL, C1:
// ESC starts every escape sequence), the format characters (Cf: zero-width
// space and joiners, soft hyphen, BOM, bidi controls, tag characters
// U+E0000–E007F), private use (Co), surrogates (Cs, never in valid
// UTF-8), unassigned code points (Cn, as of the Unicode version Go's tables
// carry), the line and paragraph separators (Zl, Zp), every
// Default_Ignorable_Code_Point (variation selectors, Hangul fillers, ...)
// and the characters that print as a space or as nothing without being
// U+0020 (blank). Newline and tab are Hidden too; Sanitize keeps them in
// multi-line text. Every character unicode.IsPrint refuses, the ASCII space
// aside, is Hidden.
func Hidden(r rune) bool {
	if r >= 0x20 && r < 0x7f {
		return false // printable ASCII: the common case
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) ||
		unassigned(r) || unicode.Is(defaultIgnorable, r) || unicode.Is(blank, r)
}

// unassigned reports general category Cn: in none of the assigned ones.
// Go has no Cn table, and its unicode.C (Other) holds the unassigned code
// points too, so the test lists Other's assigned parts instead.
func unassigned(r rune) bool {
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z,
		unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// defaultIgnorable is Default_Ignorable_Code_Point from Unicode 15.0's
// DerivedCoreProperties.txt, a derived property Go's unicode package does
// not carry. Most of it is Cf or Cn already; what is not is the reason for
// the table: the combining grapheme joiner 034F, the Hangul fillers 115F,
// 1160, 3164 and FFA0, the Khmer inherent vowels 17B4–17B5, the Mongolian
// free variation selectors 180B–180D and 180F, and the variation selectors
// FE00–FE0F and E0100–E01EF. TestDefaultIgnorableTable re-derives it from
// the properties Go does carry.
var defaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1}, // soft hyphen
		{Lo: 0x034f, Hi: 0x034f, Stride: 1}, // combining grapheme joiner
		{Lo: 0x061c, Hi: 0x061c, Stride: 1}, // Arabic letter mark
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, // Hangul choseong and jungseong fillers
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1}, // Khmer inherent vowels
		{Lo: 0x180b, Hi: 0x180f, Stride: 1}, // Mongolian free variation selectors, vowel separator
		{Lo: 0x200b, Hi: 0x200f, Stride: 1}, // zero-width space, non-joiner, joiner; LRM, RLM
		{Lo: 0x202a, Hi: 0x202e, Stride: 1}, // bidi embeddings and overrides
		{Lo: 0x2060, Hi: 0x206f, Stride: 1}, // word joiner, invisible operators, isolates, deprecated formats
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // Hangul filler
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1}, // variation selectors 1–16
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1}, // zero-width no-break space (BOM)
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1}, // halfwidth Hangul filler
		{Lo: 0xfff0, Hi: 0xfff8, Stride: 1}, // reserved
	},
	R32: []unicode.Range32{
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1}, // shorthand format controls
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1}, // musical symbol beam and phrase controls
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1}, // tags, variation selectors 17–256, reserved
	},
	LatinOffset: 1,
}

// blank is what prints as a space or as nothing without being U+0020, so
// that "a\u00a0b" or a line of U+2800 reads as something other than what
// a program sees: the spaces other than U+0020 (every Zs: no-break space
// 00A0, Ogham space mark 1680, the typographic spaces 2000–200A, narrow
// no-break space 202F, medium mathematical space 205F, ideographic space
// 3000), the Braille blank 2800, the Hangul fillers 115F, 1160, 3164 and
// FFA0 (default-ignorable as well), the object replacement character FFFC
// (a blank box or nothing, by font) and the Khitan small script filler
// 16FE4.
var blank = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00a0, Hi: 0x00a0, Stride: 1}, // no-break space
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, // Hangul choseong and jungseong fillers
		{Lo: 0x1680, Hi: 0x1680, Stride: 1}, // Ogham space mark
		{Lo: 0x2000, Hi: 0x200a, Stride: 1}, // en quad ... hair space
		{Lo: 0x202f, Hi: 0x202f, Stride: 1}, // narrow no-break space
		{Lo: 0x205f, Hi: 0x205f, Stride: 1}, // medium mathematical space
		{Lo: 0x2800, Hi: 0x2800, Stride: 1}, // Braille pattern blank
		{Lo: 0x3000, Hi: 0x3000, Stride: 1}, // ideographic space
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // Hangul filler
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1}, // halfwidth Hangul filler
		{Lo: 0xfffc, Hi: 0xfffc, Stride: 1}, // object replacement character
	},
	R32: []unicode.Range32{
		{Lo: 0x16fe4, Hi: 0x16fe4, Stride: 1}, // Khitan small script filler
	},
	LatinOffset: 1,
}
