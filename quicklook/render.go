package quicklook

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

const (
	Width  = 1200
	Height = 900
)

var (
	specRect = image.Rect(100, 118, 1080, 628)  // spectrogram
	barRect  = image.Rect(1100, 118, 1120, 628) // colour bar
	lineRect = image.Rect(100, 668, 1080, 842)  // mean spectrum
)

var (
	white    = color.RGBA{0xff, 0xff, 0xff, 0xff}
	ink      = color.RGBA{0x20, 0x20, 0x20, 0xff}
	grey     = color.RGBA{0x70, 0x70, 0x70, 0xff}
	grid     = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	meanCol  = color.RGBA{0x1f, 0x4e, 0xa8, 0xff}
	burstCl  = color.RGBA{0xe0, 0x20, 0x20, 0xff}
	okCol    = color.RGBA{0xb0, 0x10, 0x10, 0xff}
	peakLine = color.RGBA{0xf0, 0xb0, 0xb0, 0xff}
)

// Meta is what the title says about the capture.
type Meta struct {
	TaskID                    string
	Start, End                time.Time // End zero: Start + the analysed duration
	FrequencyHz, SampleRateHz int64     // default to the Analysis's
	Source                    string    // capture file name, when known
	Details                   string    // extra parameters, e.g. gains
	Simulated                 bool      // from rfhandoff's HackRF simulator
}

var errNoAnalysis = errors.New("quicklook: no analysis to render")

// RenderPNG writes the quick-look PNG.
func RenderPNG(w io.Writer, a *Analysis, d Detection, meta Meta) error {
	if a == nil {
		return errNoAnalysis
	}
	meta.FrequencyHz = cmp.Or(meta.FrequencyHz, a.FrequencyHz)
	meta.SampleRateHz = cmp.Or(meta.SampleRateHz, a.SampleRateHz)
	c, err := newCanvas(Width, Height, white)
	if err != nil {
		return err
	}
	drawTitle(c, a, d, meta)
	drawSpectrogram(c, a, d)
	drawSpectrum(c, a, d)
	// Paletted at BestSpeed: RGBA at the default level took most of the
	// 0.2 s budget between a capture's end and COMPLETE.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, toPaletted(c.img))
}

// headerLine is the title's second line.
func headerLine(a *Analysis, m Meta) string {
	when := ""
	if !m.Start.IsZero() {
		end := m.End
		if end.IsZero() {
			end = m.Start.Add(a.Duration)
		}
		s, e := m.Start.UTC(), end.UTC()
		layout := time.DateTime
		if e.Format(time.DateOnly) == s.Format(time.DateOnly) {
			layout = time.TimeOnly
		}
		when = s.Format(time.DateTime) + " – " + e.Format(layout) + " UTC   "
	}
	return fmt.Sprintf("%s%.2f s   centre %s MHz   %s MS/s   FFT %d bins, %d rows × %.3f s, %s",
		when, a.Duration.Seconds(), trimMHz(float64(m.FrequencyHz)/1e6, 6),
		trimMHz(float64(m.SampleRateHz)/1e6, 3), a.FFTSize, len(a.Rows), a.RowSeconds, analysedShare(a.FrameStride))
}

func analysedShare(stride float64) string {
	if !(stride > 1) {
		return "every sample analysed"
	}
	pct := 100 / stride
	if pct >= 10 {
		return fmt.Sprintf("%.0f %% of the samples analysed", pct)
	}
	return fmt.Sprintf("%.2g %% of the samples analysed", pct)
}

// titleText is the title's first line; a simulated capture says so first.
func titleText(m Meta) string {
	title := "RX quick-look"
	if m.Simulated {
		title = "SIMULATED RX quick-look (rfhandoff's HackRF simulator, no radio)"
	}
	if name := titleName(m); name != "" {
		title += ": " + name
	}
	return title
}

func titleName(m Meta) string { return cmp.Or(m.TaskID, m.Source) }

func drawTitle(c *canvas, a *Analysis, d Detection, m Meta) {
	c.textAt(c.title, titleText(m), 20, 30, alignLeft, ink)
	var right []string
	if m.Source != "" && m.Source != titleName(m) {
		right = append(right, m.Source)
	}
	if m.Details != "" {
		right = append(right, m.Details)
	}
	c.textAt(c.text, strings.Join(right, "   "), Width-20, 30, alignRight, grey)

	c.textAt(c.text, headerLine(a, m), 20, 56, alignLeft, ink)

	col, verdict := grey, fmt.Sprintf("No burst %.0f dB over the floor (%.1f dBFS/bin) for %.2f s or more  →  %s",
		d.ThresholdDB, d.NoiseFloorDBFS, d.MinDuration.Seconds(), d.RFTXObserved())
	if d.Burst {
		col, verdict = okCol, fmt.Sprintf("Burst %.2f – %.2f s, peak %.1f dBFS at %s MHz (%+.1f dB over floor %.1f dBFS/bin)  →  %s",
			d.Start.Seconds(), d.End.Seconds(), d.PeakDBFS,
			trimMHz((float64(m.FrequencyHz)+d.PeakOffsetHz)/1e6, 4), d.PeakExcessDB, d.NoiseFloorDBFS, d.RFTXObserved())
	}
	c.textAt(c.text, verdict, 20, 82, alignLeft, col)
}

func trimMHz(v float64, dec int) string {
	s := fmt.Sprintf("%.*f", dec, v)
	if dec > 0 {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// scaleFor picks the colour range, 30 to 90 dB wide, so plain noise shows
// dark and a burst bright.
func scaleFor(a *Analysis) colourScale {
	all := slices.Concat(a.Rows...)
	if len(all) == 0 {
		return colourScale{minDBFS, minDBFS + 30}
	}
	hi := slices.Max(all)
	lo := max(percentile(all, 0.05), hi-90)
	return colourScale{lo, max(hi, lo+30)}
}

func drawSpectrogram(c *canvas, a *Analysis, d Detection) {
	r := specRect
	sc := scaleFor(a)
	if len(a.Rows) == 0 {
		c.fill(r, viridis[0])
		c.label(c.text, "no complete FFT frame in the capture", (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, alignCentre, ink, white)
	} else {
		paintSpectrogram(c, a, sc)
	}
	c.frame(r.Inset(-1), ink)

	dur := a.Duration.Seconds()
	timeY := func(t float64) int { return r.Min.Y + int(t/dur*float64(r.Dy()-1)+0.5) }
	c.textAt(c.small, "time (s)", r.Min.X-8, r.Min.Y-8, alignRight, ink)
	if dur > 0 {
		c.yTicks(r, 0, dur, niceStep(dur, 10), timeY, false)
	}
	freqAxis(c, a, r, false)
	colourBar(c, sc)

	if d.Burst && dur > 0 {
		for i, t := range []time.Duration{d.Start, d.End} {
			y := max(r.Min.Y, min(r.Max.Y-2, timeY(t.Seconds())))
			c.dashedHLine(r.Min.X, r.Max.X, y, 10, burstCl)
			c.hline(r.Min.X-10, r.Min.X, y, burstCl)
			ty := max(r.Min.Y+16, min(r.Max.Y-6, y+[]int{-6, 18}[i])) // start's label above, end's below
			c.label(c.small, fmt.Sprintf("burst %s %.2f s", []string{"start", "end"}[i], t.Seconds()), r.Max.X-8, ty, alignRight, white, burstCl)
		}
		x := freqX(a, r, d.PeakOffsetHz)
		for k := 0; k < 8; k++ {
			c.hline(x-k, x+k+1, r.Min.Y-3-k, burstCl)
		}
	}
}

// paintSpectrogram fills specRect; where rows or bins share a pixel the
// strongest wins, so a short or narrow burst is never averaged away.
func paintSpectrogram(c *canvas, a *Analysis, sc colourScale) {
	r := specRect
	nb, nr := a.FFTSize, len(a.Rows)
	dur := a.Duration.Seconds()
	rowAt := func(py int) int { // row index at the top of pixel row py
		if dur <= 0 || a.RowSeconds <= 0 {
			return py * nr / r.Dy()
		}
		return min(nr-1, int(float64(py)/float64(r.Dy())*dur/a.RowSeconds))
	}
	line := make([]float64, nb)
	for py := 0; py < r.Dy(); py++ {
		r0, r1 := rowAt(py), rowAt(py+1)
		if py == r.Dy()-1 {
			r1 = nr - 1
		}
		copy(line, a.Rows[r0])
		for k := r0 + 1; k < r1; k++ {
			for b, v := range a.Rows[k] {
				line[b] = max(line[b], v)
			}
		}
		for px := 0; px < r.Dx(); px++ {
			c.img.SetRGBA(r.Min.X+px, r.Min.Y+py, sc.at(columnMax(line, px, r.Dx())))
		}
	}
}

func freqX(a *Analysis, r image.Rectangle, offsetHz float64) int {
	fs := float64(a.SampleRateHz)
	if fs <= 0 {
		return r.Min.X + r.Dx()/2
	}
	t := (offsetHz + fs/2) / fs
	return r.Min.X + max(0, min(r.Dx()-1, int(t*float64(r.Dx())+0.5)))
}

// freqAxis draws frequency ticks under r, with title the axis's name too.
func freqAxis(c *canvas, a *Analysis, r image.Rectangle, title bool) {
	fs := float64(a.SampleRateHz)
	if fs <= 0 {
		return
	}
	f0 := float64(a.FrequencyHz)
	lo, hi := (f0-fs/2)/1e6, (f0+fs/2)/1e6
	step := niceStep(hi-lo, 8)
	for _, f := range ticks(lo, hi, step) {
		x := freqX(a, r, f*1e6-f0)
		c.vline(x, r.Max.Y, r.Max.Y+6, ink)
		c.textAt(c.small, fmt.Sprintf("%.*f", decimals(step), f), x, r.Max.Y+20, alignCentre, ink)
	}
	if title {
		c.textAt(c.text, fmt.Sprintf("frequency (MHz), centre %s MHz, span %s MHz",
			trimMHz(f0/1e6, 6), trimMHz(fs/1e6, 3)), (r.Min.X+r.Max.X)/2, r.Max.Y+44, alignCentre, ink)
	}
}

func colourBar(c *canvas, sc colourScale) {
	r := barRect
	for y := r.Min.Y; y < r.Max.Y; y++ {
		v := sc.hi - (sc.hi-sc.lo)*float64(y-r.Min.Y)/float64(r.Dy()-1)
		c.hline(r.Min.X, r.Max.X, y, sc.at(v))
	}
	c.frame(r.Inset(-1), ink)
	c.textAt(c.small, "dBFS", (r.Min.X+r.Max.X)/2, r.Min.Y-8, alignCentre, ink)
	c.yTicks(r, sc.lo, sc.hi, niceStep(sc.hi-sc.lo, 8), levelY(r, sc.lo, sc.hi), true)
}

func levelY(r image.Rectangle, lo, hi float64) func(float64) int {
	return func(v float64) int { return r.Max.Y - 1 - int((v-lo)/(hi-lo)*float64(r.Dy()-1)+0.5) }
}

func (c *canvas) yTicks(r image.Rectangle, lo, hi, step float64, yOf func(float64) int, right bool) {
	x, tx, align := r.Min.X-6, r.Min.X-9, alignRight
	if right {
		x, tx, align = r.Max.X, r.Max.X+8, alignLeft
	}
	for _, v := range ticks(lo, hi, step) {
		y := yOf(v)
		c.hline(x, x+5, y, ink)
		c.textAt(c.small, fmt.Sprintf("%.*f", decimals(step), v), tx, y+5, align, ink)
	}
}

func drawSpectrum(c *canvas, a *Analysis, d Detection) {
	r := lineRect
	curves := [][]float64{a.Spectrum}
	if d.Burst {
		curves = append(curves, burstSpectrum(a, d))
	}
	lo, hi := minDBFS, minDBFS+10
	if all := slices.Concat(curves...); len(all) > 0 && !math.IsInf(slices.Min(all), 0) {
		lo, hi = slices.Min(all), slices.Max(all)
	}
	lo, hi = lo-3, max(hi+3, lo+13)
	step := niceStep(hi-lo, 5)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	yOf := levelY(r, lo, hi)
	for _, v := range ticks(lo, hi, step) {
		c.hline(r.Min.X, r.Max.X, yOf(v), grid)
	}
	c.yTicks(r, lo, hi, step, yOf, false)
	c.textAt(c.small, "dBFS/bin", r.Min.X-8, r.Min.Y-8, alignRight, ink)
	if d.Burst {
		c.vline(freqX(a, r, d.PeakOffsetHz), r.Min.Y, r.Max.Y, peakLine)
	}
	cols := []color.RGBA{meanCol, burstCl}
	for i := len(curves) - 1; i >= 0; i-- { // the mean on top, the burst's peak above it
		plotCurve(c, r, curves[i], yOf, cols[i])
	}
	c.frame(r.Inset(-1), ink)
	freqAxis(c, a, r, true)

	x, y := r.Max.X-12, r.Min.Y+18
	names := []string{"mean spectrum, whole capture", "mean during the burst"}
	for i := len(curves) - 1; i >= 0; i-- {
		w := c.textAt(c.small, names[i], x, y, alignRight, ink)
		c.fill(image.Rect(x-w-34, y-6, x-w-8, y-3), cols[i])
		y += 18
	}
}

func plotCurve(c *canvas, r image.Rectangle, s []float64, yOf func(float64) int, col color.RGBA) {
	if len(s) == 0 {
		return
	}
	py := 0
	for x := 0; x < r.Dx(); x++ {
		y := max(r.Min.Y, min(r.Max.Y-2, yOf(columnMax(s, x, r.Dx()))))
		if x > 0 {
			c.line(r.Min.X+x-1, py, r.Min.X+x, y, r, col)
		}
		py = y
	}
}

func columnMax(s []float64, x, w int) float64 {
	b0 := x * len(s) / w
	return slices.Max(s[b0:min(max((x+1)*len(s)/w, b0+1), len(s))])
}

func burstSpectrum(a *Analysis, d Detection) []float64 {
	out := make([]float64, a.FFTSize)
	var n int
	for r := range a.Rows {
		if a.rowStart(r) < d.Start || a.rowEnd(r) > d.End {
			continue
		}
		for k, v := range a.Rows[r] {
			out[k] += math.Pow(10, v/10)
		}
		n++
	}
	return meanDBFS(out, n)
}
