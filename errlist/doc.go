// Package errlist joins errors the one way rfhandoff does: a
// go-multierror list that reads as the single error when there is one and
// as a counted list, one problem a line, when there are several.
//
// What it offers: List (every reason at once, a list even of one), Join (a
// failure and the failure to record it) and Format, the one rendering of a
// list.
package errlist
