package projection

import (
	"strconv"
	"strings"
)

// HumanSize writes a byte count the way people read file sizes, in SI
// units: 512 B, 1.2 MB, 34 MB. A negative size is shown as "?".
func HumanSize(n int64) string {
	if n < 0 {
		return "?"
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	v := float64(n)
	u := -1
	for v >= 999.95 && u < len(units)-1 {
		v /= 1000
		u++
	}
	if v < 9.95 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + units[u]
}

// Duration writes seconds as m:ss, or h:mm:ss from an hour: 0:12, 1:05, 1:00:00.
// A negative duration is shown as "?".
func Duration(seconds int64) string {
	if seconds < 0 {
		return "?"
	}
	h, m, s := seconds/3600, seconds/60%60, seconds%60
	var b strings.Builder
	if h > 0 {
		b.WriteString(strconv.FormatInt(h, 10))
		b.WriteByte(':')
		b.WriteString(pad2(m))
	} else {
		b.WriteString(strconv.FormatInt(m, 10))
	}
	b.WriteByte(':')
	b.WriteString(pad2(s))
	return b.String()
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// trimFloat writes f with at most prec decimals and no trailing zeros.
func trimFloat(f float64, prec int) string {
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
