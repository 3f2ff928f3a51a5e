package hiddentext

import "unicode"

// Hidden reports whether r is a character a terminal does not show as
// itself, so that text holding it could say more to a program than to the
// person reading it (PROTOCOL#hidden-text). Newline and tab are Hidden too;
// Sanitize keeps them in multi-line text. Every character unicode.IsPrint
// refuses, the ASCII space aside, is Hidden.
func Hidden(r rune) bool {
	if r >= 0x20 && r < 0x7f {
		return false // printable ASCII: the common case
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) ||
		unassigned(r) || unicode.Is(defaultIgnorable, r) || unicode.Is(blank, r)
}

// unassigned reports general category Cn. Go has no Cn table, and its
// unicode.C holds the unassigned code points too, so this lists the
// assigned categories instead.
func unassigned(r rune) bool {
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z,
		unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// defaultIgnorable is Default_Ignorable_Code_Point from Unicode 15.0,
// which Go's unicode package does not carry; most of it is Cf or Cn
// already. TestDefaultIgnorableTable re-derives it.
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
// that "a\u00a0b" reads as something other than what a program sees.
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
