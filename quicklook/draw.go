package quicklook

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

type canvas struct {
	img                *image.RGBA
	small, text, title font.Face
}

var (
	regular = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(goregular.TTF) })
	bold    = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) })
)

// newCanvas's faces are per canvas: a face is not safe for concurrent use.
func newCanvas(w, h int, bg color.Color) (*canvas, error) {
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
	for _, f := range []struct {
		face *font.Face
		ttf  func() (*opentype.Font, error)
		size float64
	}{{&c.small, regular, 13}, {&c.text, regular, 15}, {&c.title, bold, 20}} {
		ttf, err := f.ttf()
		if err == nil {
			*f.face, err = opentype.NewFace(ttf, &opentype.FaceOptions{Size: f.size, DPI: 72, Hinting: font.HintingFull})
		}
		if err != nil {
			return nil, err
		}
	}
	c.fill(c.img.Bounds(), bg)
	return c, nil
}

func (c *canvas) fill(r image.Rectangle, col color.Color) {
	draw.Draw(c.img, r, image.NewUniform(col), image.Point{}, draw.Src)
}

func (c *canvas) hline(x0, x1, y int, col color.Color) { c.fill(image.Rect(x0, y, x1, y+1), col) }

func (c *canvas) vline(x, y0, y1 int, col color.Color) { c.fill(image.Rect(x, y0, x+1, y1), col) }

func (c *canvas) dashedHLine(x0, x1, y, dash int, col color.Color) {
	for x := x0; x < x1; x += 2 * dash {
		c.fill(image.Rect(x, y, min(x+dash, x1), y+2), col)
	}
}

func (c *canvas) frame(r image.Rectangle, col color.Color) {
	c.hline(r.Min.X, r.Max.X, r.Min.Y, col)
	c.hline(r.Min.X, r.Max.X, r.Max.Y-1, col)
	c.vline(r.Min.X, r.Min.Y, r.Max.Y, col)
	c.vline(r.Max.X-1, r.Min.Y, r.Max.Y, col)
}

// line draws a two-pixel-high line (Bresenham).
func (c *canvas) line(x0, y0, x1, y1 int, clip image.Rectangle, col color.RGBA) {
	sx, sy := cmp.Compare(x1, x0), cmp.Compare(y1, y0)
	dx, dy := (x1-x0)*sx, -(y1-y0)*sy // |x1-x0|, -|y1-y0|
	e := dx + dy
	for {
		for _, p := range [2]image.Point{{x0, y0}, {x0, y0 + 1}} {
			if p.In(clip) {
				c.img.SetRGBA(p.X, p.Y, col)
			}
		}
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

// Text anchors: the text starts align·width/2 left of its anchor.
const (
	alignLeft = iota
	alignCentre
	alignRight
)

// textAt draws s with its baseline at y and returns its width.
func (c *canvas) textAt(face font.Face, s string, x, y, align int, col color.Color) int {
	w := font.MeasureString(face, s).Round()
	x -= w * align / 2
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
	return w
}

func (c *canvas) label(face font.Face, s string, x, y, align int, fg, bg color.Color) {
	w := font.MeasureString(face, s).Round()
	m := face.Metrics()
	x -= w * align / 2
	c.fill(image.Rect(x-4, y-m.Ascent.Ceil()-2, x+w+4, y+m.Descent.Ceil()+2), bg)
	c.textAt(face, s, x, y, alignLeft, fg)
}
