// Package errlist joins errors the one way rfhandoff does: a
// go-multierror list that reads as the single error when there is one and
// as a counted list, one problem a line, when there are several.
package errlist
