package quicklook

import (
	"image"
	"image/color"
)

// viridisStops are matplotlib's viridis at tenths; a perceptually uniform
// map that stays readable in grey and for colour-blind readers.
var viridisStops = [...]color.RGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x48, 0x24, 0x75, 0xff}, {0x41, 0x44, 0x87, 0xff},
	{0x35, 0x5f, 0x8d, 0xff}, {0x2a, 0x78, 0x8e, 0xff}, {0x21, 0x91, 0x8c, 0xff},
	{0x22, 0xa8, 0x84, 0xff}, {0x44, 0xbf, 0x70, 0xff}, {0x7a, 0xd1, 0x51, 0xff},
	{0xbd, 0xdf, 0x26, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// mapLevels is how many colours the map has; the rest of the 256-colour
// palette holds the text and line colours.
const mapLevels = 192

var viridis = func() [mapLevels]color.RGBA {
	var lut [mapLevels]color.RGBA
	last := len(viridisStops) - 1
	for i := range lut {
		f := float64(i) / (mapLevels - 1) * float64(last)
		j := min(int(f), last-1)
		lut[i] = mix(viridisStops[j], viridisStops[j+1], f-float64(j))
	}
	return lut
}()

func mix(a, b color.RGBA, t float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x) + t*(float64(y)-float64(x)) + 0.5) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 0xff}
}

type colourScale struct{ lo, hi float64 }

func (s colourScale) at(v float64) color.RGBA {
	t := (v - s.lo) / (s.hi - s.lo)
	i := int(t*(mapLevels-1) + 0.5)
	return viridis[max(0, min(mapLevels-1, i))]
}

// palette has ramps for anti-aliased text on its backgrounds.
var palette = func() color.Palette {
	p := make(color.Palette, 0, 256)
	for _, c := range viridis {
		p = append(p, c)
	}
	ramp := func(fg, bg color.RGBA, n int) {
		for i := 1; i < n; i++ {
			p = append(p, mix(bg, fg, float64(i)/float64(n)))
		}
	}
	p = append(p, white, ink, grey, grid, meanCol, burstCl, okCol, peakLine)
	ramp(ink, white, 16)
	ramp(grey, white, 8)
	ramp(okCol, white, 8)
	ramp(white, burstCl, 8)
	ramp(ink, grid, 4)
	if len(p) > 256 {
		panic("quicklook: palette over 256 colours")
	}
	return p
}()

// toPaletted converts the drawn image to the palette, which more than
// halves the encoding time; other colours go to their nearest, cached.
func toPaletted(src *image.RGBA) *image.Paletted {
	dst := image.NewPaletted(src.Bounds(), palette)
	index := make(map[uint32]uint8, 512)
	for i, c := range palette {
		c := c.(color.RGBA)
		index[key(c.R, c.G, c.B)] = uint8(i)
	}
	prev, prevIdx := uint32(1<<31), uint8(0)
	for i, j := 0, 0; i < len(src.Pix); i, j = i+4, j+1 {
		k := key(src.Pix[i], src.Pix[i+1], src.Pix[i+2])
		if k != prev {
			idx, ok := index[k]
			if !ok {
				idx = uint8(palette.Index(color.RGBA{src.Pix[i], src.Pix[i+1], src.Pix[i+2], 0xff}))
				index[k] = idx
			}
			prev, prevIdx = k, idx
		}
		dst.Pix[j] = prevIdx
	}
	return dst
}

func key(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }
